package dev.rekey.rowkey;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import org.apache.commons.codec.digest.DigestUtils;
import org.apache.commons.codec.digest.MurmurHash3;

/**
 * The stable hashes a layout may name. Every definition is exact (see docs/layouts.md):
 *
 * <ul>
 *   <li>{@code md5}: MD5 of the input bytes; digest = 16 bytes; int = first 4 digest bytes
 *       big-endian.
 *   <li>{@code murmur3_32}: MurmurHash3 x86_32, seed 0, over the bytes ({@code
 *       MurmurHash3.hash32x86(b, 0, b.length, 0)}); digest = the int, 4 bytes big-endian.
 *   <li>{@code crc32}: CRC-32 (IEEE, {@link CRC32}); int = the low 32 bits as a signed int.
 *   <li>{@code crc32c}: CRC-32C (Castagnoli, {@link CRC32C}); int as for crc32.
 *   <li>{@code java_arrays_hashcode}: {@link Arrays#hashCode(byte[])} (31*h + signed byte, start
 *       1).
 *   <li>{@code phoenix}: Apache Phoenix's SALT_BUCKETS hash: the same Arrays.hashCode-style value
 *       over the key bytes after the salt, reduced to a bucket with {@code abs(h % N)} instead of
 *       floorMod.
 * </ul>
 */
public enum HashFunction {
  MD5(16),
  MURMUR3_32(4),
  CRC32(4),
  CRC32C(4),
  JAVA_ARRAYS_HASHCODE(4),
  PHOENIX(4);

  private final int digestLength;

  HashFunction(int digestLength) {
    this.digestLength = digestLength;
  }

  /** The name used in layout files, e.g. {@code murmur3_32}. */
  public String fileName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Number of bytes {@link #digest(byte[])} returns (16 for md5, 4 otherwise). */
  public int digestLength() {
    return digestLength;
  }

  public static HashFunction fromFileName(String s) {
    for (HashFunction h : values()) {
      if (h.fileName().equals(s)) {
        return h;
      }
    }
    throw new IllegalArgumentException(
        "unknown hash '"
            + s
            + "' (known: md5, murmur3_32, crc32, crc32c, java_arrays_hashcode, phoenix)");
  }

  /** The hash as a signed 32-bit int (md5: first 4 digest bytes, big-endian). */
  public int hash32(byte[] in) {
    switch (this) {
      case MD5:
        return ByteBuffer.wrap(md5(in)).getInt();
      case MURMUR3_32:
        return MurmurHash3.hash32x86(in, 0, in.length, 0);
      case CRC32:
        {
          CRC32 c = new CRC32();
          c.update(in);
          return (int) c.getValue();
        }
      case CRC32C:
        {
          CRC32C c = new CRC32C();
          c.update(in);
          return (int) c.getValue();
        }
      case JAVA_ARRAYS_HASHCODE:
      case PHOENIX:
        return Arrays.hashCode(in);
      default:
        throw new AssertionError(this);
    }
  }

  /** The full digest bytes: md5's 16 bytes, or the 32-bit hash as 4 bytes big-endian. */
  public byte[] digest(byte[] in) {
    if (this == MD5) {
      return md5(in);
    }
    return ByteBuffer.allocate(4).putInt(hash32(in)).array();
  }

  /**
   * The bucket in [0, n) for a salt byte: {@code Math.floorMod(hash32(in), n)}, except {@code
   * phoenix} which is {@code Math.abs(hash32(in) % n)} as Phoenix computes it.
   */
  public int bucket(byte[] in, int n) {
    int h = hash32(in);
    return this == PHOENIX ? Math.abs(h % n) : Math.floorMod(h, n);
  }

  /**
   * One MD5 digest per thread, reused: looking one up per call ({@code DigestUtils.md5}) goes
   * through the security providers every time (3% of a scan job's task samples decoding
   * hash-prefixed keys, JFR of bench/scan at 2M rows).
   */
  private static final ThreadLocal<java.security.MessageDigest> MD5_DIGEST =
      ThreadLocal.withInitial(DigestUtils::getMd5Digest);

  private static byte[] md5(byte[] in) {
    return MD5_DIGEST.get().digest(in); // digest() resets it for the next call
  }
}

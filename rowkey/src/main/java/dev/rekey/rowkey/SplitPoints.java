package dev.rekey.rowkey;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Region split points, as pure functions. {@link #uniform} and {@link #hexString} are
 * byte-identical to HBase's {@code RegionSplitter.UniformSplit} and {@code
 * RegionSplitter.HexStringSplit} (pinned by tests against HBase itself). Never mix them: hex-text
 * boundaries on raw-byte keys leave most regions empty.
 */
public final class SplitPoints {
  private SplitPoints() {}

  /**
   * Salt boundaries for N buckets: [1], [2], ... [N-1] (N regions, one per bucket); 1 ≤ N ≤ 256.
   */
  public static List<byte[]> salt(int buckets) {
    if (buckets < 1 || buckets > 256) {
      throw new IllegalArgumentException("salt buckets must be in 1..256, got " + buckets);
    }
    List<byte[]> out = new ArrayList<>(buckets - 1);
    for (int i = 1; i < buckets; i++) {
      out.add(new byte[] {(byte) i});
    }
    return out;
  }

  /**
   * Even boundaries of a k-byte prefix space: {@code floor(i * 256^k / regions)} as k bytes
   * big-endian for i = 1..regions-1. For k = 2 and 64 regions these are the multiples of 1,024.
   */
  public static List<byte[]> prefix(int prefixBytes, int regions) {
    if (prefixBytes < 1 || prefixBytes > 16) {
      throw new IllegalArgumentException("prefix bytes must be in 1..16, got " + prefixBytes);
    }
    BigInteger space = BigInteger.ONE.shiftLeft(8 * prefixBytes);
    if (regions < 1 || BigInteger.valueOf(regions).compareTo(space) > 0) {
      throw new IllegalArgumentException(
          String.format(
              "regions must be in 1..%s for a %s-byte prefix, got %s",
              space, prefixBytes, regions));
    }
    List<byte[]> out = new ArrayList<>(regions - 1);
    for (int i = 1; i < regions; i++) {
      BigInteger b = space.multiply(BigInteger.valueOf(i)).divide(BigInteger.valueOf(regions));
      out.add(fixedWidth(b, prefixBytes));
    }
    return out;
  }

  /**
   * HBase UniformSplit over [empty, 8 x 0xFF]: {@code Bytes.split(first, last, true, regions - 1)}
   * without its two end points. For regions = 1 returns no split points (HBase throws).
   */
  public static List<byte[]> uniform(int regions) {
    if (regions < 1) {
      throw new IllegalArgumentException("regions must be >= 1, got " + regions);
    }
    if (regions == 1) {
      return new ArrayList<>();
    }
    byte[] first = new byte[0];
    byte[] last = new byte[8];
    Arrays.fill(last, (byte) 0xFF);
    return bytesSplit(first, last, regions - 1);
  }

  /**
   * HBase HexStringSplit over "00000000".."FFFFFFFF" (inclusive): {@code i * (0x100000000 /
   * regions)} as lower-case hex text left-padded with '0' to 8 characters, for i = 1..regions-1.
   * Requires regions ≥ 2 as HBase does.
   */
  public static List<byte[]> hexString(int regions) {
    if (regions < 2) {
      throw new IllegalArgumentException("HexStringSplit needs regions > 1, got " + regions);
    }
    // +1 because the last row is inclusive: range = 0xFFFFFFFF - 0 + 1
    BigInteger range = new BigInteger("FFFFFFFF", 16).add(BigInteger.ONE);
    BigInteger size = range.divide(BigInteger.valueOf(regions));
    List<byte[]> out = new ArrayList<>(regions - 1);
    for (int i = 1; i < regions; i++) {
      String s = size.multiply(BigInteger.valueOf(i)).toString(16);
      StringBuilder sb = new StringBuilder();
      for (int p = s.length(); p < 8; p++) {
        sb.append('0');
      }
      out.add(sb.append(s).toString().getBytes(StandardCharsets.UTF_8));
    }
    return out;
  }

  /** HBase {@code Bytes.iterateOnSplits(a, b, inclusive=true, num)}, inner points only. */
  private static List<byte[]> bytesSplit(byte[] a, byte[] b, int num) {
    byte[] aP = a;
    byte[] bP = b;
    if (a.length < b.length) {
      aP = Arrays.copyOf(a, b.length);
    } else if (b.length < a.length) {
      bP = Arrays.copyOf(b, a.length);
    }
    if (Arrays.compareUnsigned(aP, bP) >= 0) {
      throw new IllegalArgumentException("b <= a");
    }
    BigInteger start = new BigInteger(withHeader(aP));
    BigInteger stop = new BigInteger(withHeader(bP));
    BigInteger diff = stop.subtract(start).add(BigInteger.ONE);
    BigInteger splits = BigInteger.valueOf(num + 1L);
    if (diff.compareTo(splits) < 0) {
      return bytesSplit(Arrays.copyOf(aP, aP.length + 1), Arrays.copyOf(bP, bP.length + 1), num);
    }
    BigInteger interval = diff.divide(splits);
    List<byte[]> out = new ArrayList<>(num);
    for (int i = 1; i <= num; i++) {
      byte[] padded = start.add(interval.multiply(BigInteger.valueOf(i))).toByteArray();
      int drop = padded[1] == 0 ? 2 : 1;
      out.add(Arrays.copyOfRange(padded, drop, padded.length));
    }
    return out;
  }

  private static byte[] withHeader(byte[] x) {
    byte[] r = new byte[x.length + 2];
    r[0] = 1;
    System.arraycopy(x, 0, r, 2, x.length);
    return r;
  }

  static byte[] fixedWidth(BigInteger v, int width) {
    byte[] raw = v.toByteArray();
    byte[] out = new byte[width];
    int n = Math.min(raw.length, width);
    System.arraycopy(raw, raw.length - n, out, width - n, n);
    return out;
  }
}

package dev.rekey.rowkey;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/**
 * A per-entity sub-bucket derived from the time field, to split one hot entity. Byte format: 1 byte
 * = {@code floorMod(hash32(Bytes.toBytes(t)), buckets)} where t is the natural (not reversed) value
 * of the {@code from} field as 8 bytes big-endian and hash32 is the layout-named hash (default
 * murmur3_32). The value is derived: callers need not pass it; if they do it must match. Decode
 * verifies it.
 */
public final class SubBucketCodec implements FieldCodec {
  private static final long serialVersionUID = 1L;
  private final String from;
  private final int buckets;
  private final HashFunction hash;

  public SubBucketCodec(String from, int buckets, HashFunction hash) {
    this.from = from;
    this.buckets = buckets;
    this.hash = hash;
  }

  public String from() {
    return from;
  }

  public int buckets() {
    return buckets;
  }

  public HashFunction hash() {
    return hash;
  }

  /** The sub-bucket for a time value. */
  public int bucketFor(long time) {
    return hash.bucket(ByteBuffer.allocate(8).putLong(time).array(), buckets);
  }

  @Override
  public Object coerce(Object value) {
    if (!(value instanceof Integer)) {
      throw new IllegalArgumentException(
          "expected an int sub-bucket, got " + Utf8StringCodec.typeOf(value));
    }
    int v = (Integer) value;
    if (v < 0 || v >= buckets) {
      throw new IllegalArgumentException(
          String.format("sub-bucket %s out of range [0, %s)", v, buckets));
    }
    return v;
  }

  @Override
  public byte[] valueBytes(Object value) {
    return new byte[] {(byte) (int) (Integer) coerce(value)};
  }

  @Override
  public void encode(Object value, ByteArrayOutputStream out) {
    out.writeBytes(valueBytes(value));
  }

  @Override
  public Object decode(Cursor c) {
    int v = c.take(1, "sub-bucket")[0] & 0xff;
    if (v >= buckets) {
      throw new IllegalArgumentException(
          String.format("sub-bucket %s out of range [0, %s)", v, buckets));
    }
    return v;
  }
}

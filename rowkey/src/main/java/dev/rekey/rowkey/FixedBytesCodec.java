package dev.rekey.rowkey;

import java.io.ByteArrayOutputStream;

/**
 * Fixed-length raw bytes. Byte format: exactly {@code length} bytes, as given; any other length is
 * rejected. Order: unsigned lexicographic, as HBase compares keys.
 */
public final class FixedBytesCodec implements FieldCodec {
  private static final long serialVersionUID = 1L;
  private final int length;
  private final String what; // built once: decode runs per row

  public FixedBytesCodec(int length) {
    this.length = length;
    this.what = "bytes(" + length + ")";
  }

  public int length() {
    return length;
  }

  @Override
  public Object coerce(Object value) {
    if (!(value instanceof byte[])) {
      throw new IllegalArgumentException(
          String.format(
              "expected %s bytes (byte[]), got %s", length, Utf8StringCodec.typeOf(value)));
    }
    byte[] b = (byte[]) value;
    if (b.length != length) {
      throw new IllegalArgumentException(
          String.format("wrong length: expected exactly %s bytes, got %s", length, b.length));
    }
    return b.clone();
  }

  @Override
  public byte[] valueBytes(Object value) {
    return (byte[]) coerce(value);
  }

  @Override
  public void encode(Object value, ByteArrayOutputStream out) {
    out.writeBytes(valueBytes(value));
  }

  @Override
  public Object decode(Cursor c) {
    return c.take(length, what);
  }

  @Override
  public void skip(Cursor c) {
    c.skip(length, what);
  }
}

package dev.rekey.rowkey;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/**
 * A 32-bit int. Byte format: 4 bytes big-endian two's complement (as HBase {@code
 * Bytes.toBytes(int)}); with {@code signed: true} the sign bit is flipped ({@code v ^ 0x80000000})
 * so that negative values sort before positive ones in unsigned byte order. Without the flip only
 * non-negative values sort correctly.
 */
public final class IntCodec implements FieldCodec {
  private static final long serialVersionUID = 1L;
  private final boolean signFlip;

  public IntCodec(boolean signFlip) {
    this.signFlip = signFlip;
  }

  @Override
  public Object coerce(Object value) {
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).intValue();
    }
    if (value instanceof Long) {
      long l = (Long) value;
      if (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("out of int range: " + l);
      }
      return (int) l;
    }
    throw new IllegalArgumentException("expected an int, got " + Utf8StringCodec.typeOf(value));
  }

  @Override
  public byte[] valueBytes(Object value) {
    int v = (Integer) coerce(value);
    return ByteBuffer.allocate(4).putInt(signFlip ? v ^ Integer.MIN_VALUE : v).array();
  }

  @Override
  public void encode(Object value, ByteArrayOutputStream out) {
    out.writeBytes(valueBytes(value));
  }

  @Override
  public Object decode(Cursor c) {
    int v = c.takeInt("int");
    return signFlip ? v ^ Integer.MIN_VALUE : v;
  }

  @Override
  public void skip(Cursor c) {
    c.skip(4, "int"); // any 4 bytes are an int
  }
}

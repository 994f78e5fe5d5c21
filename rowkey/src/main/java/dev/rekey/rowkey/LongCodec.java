package dev.rekey.rowkey;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/**
 * A 64-bit long. Byte format: 8 bytes big-endian two's complement (exactly HBase {@code
 * Bytes.toBytes(long)}, as HBase applications commonly store epoch millis); with {@code signed:
 * true} the sign bit is flipped ({@code v ^ Long.MIN_VALUE}) so that negative values sort first in
 * unsigned byte order. Without the flip only non-negative values sort correctly.
 */
public final class LongCodec implements FieldCodec {
  private static final long serialVersionUID = 1L;
  private final boolean signFlip;

  public LongCodec(boolean signFlip) {
    this.signFlip = signFlip;
  }

  static long toLong(Object value) {
    if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    throw new IllegalArgumentException("expected a long, got " + Utf8StringCodec.typeOf(value));
  }

  @Override
  public Object coerce(Object value) {
    return toLong(value);
  }

  @Override
  public byte[] valueBytes(Object value) {
    long v = toLong(value);
    return ByteBuffer.allocate(8).putLong(signFlip ? v ^ Long.MIN_VALUE : v).array();
  }

  @Override
  public void encode(Object value, ByteArrayOutputStream out) {
    out.writeBytes(valueBytes(value));
  }

  @Override
  public Object decode(Cursor c) {
    long v = c.takeLong("long");
    return signFlip ? v ^ Long.MIN_VALUE : v;
  }

  @Override
  public void skip(Cursor c) {
    c.skip(8, "long"); // any 8 bytes are a long
  }
}

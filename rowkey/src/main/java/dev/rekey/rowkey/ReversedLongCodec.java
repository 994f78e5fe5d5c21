package dev.rekey.rowkey;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/**
 * A reversed long for newest-first order. Byte format: 8 bytes big-endian of {@code Long.MAX_VALUE
 * - v} ({@code Bytes.toBytes(Long.MAX_VALUE - tsMillis)}). The value must be in [0,
 * Long.MAX_VALUE]: for negative v the subtraction overflows and the order would break, so negative
 * values are rejected on encode and a stored value with the top bit set is rejected on decode.
 * Order: larger v sorts first.
 */
public final class ReversedLongCodec implements FieldCodec {
  private static final long serialVersionUID = 1L;

  @Override
  public Object coerce(Object value) {
    long v = LongCodec.toLong(value);
    if (v < 0) {
      throw new IllegalArgumentException(
          "reversed long must be >= 0 (got "
              + v
              + "): Long.MAX_VALUE - v overflows for negative v");
    }
    return v;
  }

  @Override
  public byte[] valueBytes(Object value) {
    long v = (Long) coerce(value);
    return ByteBuffer.allocate(8).putLong(Long.MAX_VALUE - v).array();
  }

  @Override
  public void encode(Object value, ByteArrayOutputStream out) {
    out.writeBytes(valueBytes(value));
  }

  @Override
  public Object decode(Cursor c) {
    int at = c.pos;
    long stored = c.takeLong("reversed long");
    if (stored < 0) {
      throw new IllegalArgumentException(
          "reversed long at offset " + at + " has its top bit set (would be a negative value)");
    }
    return Long.MAX_VALUE - stored;
  }

  @Override
  public void skip(Cursor c) {
    decode(c); // checks the top bit; a long is not worth a second copy of that check
  }
}

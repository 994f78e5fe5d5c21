package dev.rekey.rowkey;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What KeyLayout.decode relies on to hash a key without encoding its fields again: the bytes a
 * codec's decode consumes are {@code valueBytes} of the decoded value plus {@code trailerLength}.
 */
class FieldCodecBytesTest {
  private static void check(FieldCodec codec, Object value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x7f); // a byte before the field, as a prefix would be
    codec.encode(codec.coerce(value), out);
    byte[] key = out.toByteArray();
    FieldCodec.Cursor c = new FieldCodec.Cursor(key, 1);
    Object decoded = codec.decode(c);
    assertEquals(key.length, c.pos(), "decode consumed the field");
    byte[] slice = Arrays.copyOfRange(key, 1, c.pos() - codec.trailerLength());
    assertArrayEquals(codec.valueBytes(decoded), slice, codec + " " + value);
  }

  @Test
  void everyCodecConsumesItsValueBytesAndItsTrailer() {
    for (boolean terminated : new boolean[] {true, false}) {
      FieldCodec s = new Utf8StringCodec(terminated);
      for (String v : List.of("", "user-42", "Zoë", "日本語", "a\uD83D\uDE00b", "\u007f\u0080")) {
        check(s, v);
        assertEquals(v, decodeOf(s, v), "decodes back: " + v);
      }
    }
    for (boolean flip : new boolean[] {true, false}) {
      for (long v : new long[] {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1_764_000_000_000L}) {
        check(new LongCodec(flip), v);
      }
      for (int v : new int[] {0, 7, -7, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
        check(new IntCodec(flip), v);
      }
    }
    check(new FixedBytesCodec(3), new byte[] {0, (byte) 0xff, 9});
    for (long v : new long[] {0, 5, Long.MAX_VALUE}) {
      check(new ReversedLongCodec(), v);
    }
  }

  @Test
  void malformedUtf8IsStillRefused() {
    byte[] key = {(byte) 0xc3, 0x28, 0};
    assertThrows(
        IllegalArgumentException.class,
        () -> new Utf8StringCodec(true).decode(new FieldCodec.Cursor(key, 0)));
  }

  private static Object decodeOf(FieldCodec codec, Object value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.encode(codec.coerce(value), out);
    return codec.decode(new FieldCodec.Cursor(out.toByteArray(), 0));
  }
}

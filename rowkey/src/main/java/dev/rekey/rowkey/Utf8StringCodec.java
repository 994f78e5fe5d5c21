package dev.rekey.rowkey;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A UTF-8 string. Byte format: the strict UTF-8 bytes of the string followed by one 0x00 terminator
 * ({@code terminated = true}); an unterminated string (allowed only as the last field) runs to the
 * end of the key. A 0x00 inside the string is rejected (it would end the field early), as are
 * unpaired surrogates (encode) and malformed UTF-8 (decode). Order: unsigned byte order of the key
 * = code point order of the strings, and "ab" sorts before "abc" because 0x00 is below every UTF-8
 * byte.
 */
public final class Utf8StringCodec implements FieldCodec {
  private static final long serialVersionUID = 1L;
  private final boolean terminated;

  public Utf8StringCodec(boolean terminated) {
    this.terminated = terminated;
  }

  public boolean terminated() {
    return terminated;
  }

  @Override
  public Object coerce(Object value) {
    if (!(value instanceof CharSequence)) {
      throw new IllegalArgumentException("expected a string, got " + typeOf(value));
    }
    String s = value.toString();
    if (s.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(
          "string contains a 0x00 byte at index "
              + s.indexOf('\0')
              + " (0x00 is the field terminator and cannot appear inside a string)");
    }
    return s;
  }

  @Override
  public int trailerLength() {
    return terminated ? 1 : 0;
  }

  @Override
  public byte[] valueBytes(Object value) {
    String s = (String) coerce(value);
    byte[] ascii = asciiBytes(s);
    if (ascii != null) {
      return ascii;
    }
    try {
      ByteBuffer bb =
          StandardCharsets.UTF_8
              .newEncoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .encode(CharBuffer.wrap(s));
      return Arrays.copyOfRange(bb.array(), bb.position(), bb.limit());
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("string is not valid Unicode (unpaired surrogate): " + e);
    }
  }

  @Override
  public void encode(Object value, ByteArrayOutputStream out) {
    out.writeBytes(valueBytes(value));
    if (terminated) {
      out.write(0);
    }
  }

  @Override
  public Object decode(Cursor c) {
    return read(c, true);
  }

  @Override
  public void skip(Cursor c) {
    read(c, false);
  }

  /** Reads the string at the cursor, checked; returns it if {@code build} (ASCII: not built). */
  private String read(Cursor c, boolean build) {
    int end;
    int next;
    boolean ascii = true; // found in the same pass as the terminator: a key is read once
    if (terminated) {
      end = -1;
      for (int i = c.pos; i < c.key.length; i++) {
        byte b = c.key[i];
        if (b == 0) {
          end = i;
          break;
        }
        ascii &= b > 0;
      }
      if (end < 0) {
        throw new IllegalArgumentException(
            "key too short: string has no 0x00 terminator after offset " + c.pos);
      }
      next = end + 1;
    } else {
      end = c.key.length;
      for (int i = c.pos; i < end; i++) {
        byte b = c.key[i];
        if (b == 0) {
          throw new IllegalArgumentException(
              "unterminated last string contains a 0x00 byte at offset " + i);
        }
        ascii &= b > 0;
      }
      next = end;
    }
    if (!build && ascii) {
      c.pos = next;
      return null;
    }
    String s = ascii ? new String(c.key, c.pos, end - c.pos, StandardCharsets.US_ASCII) : null;
    try {
      s =
          s != null
              ? s
              : StandardCharsets.UTF_8
                  .newDecoder()
                  .onMalformedInput(CodingErrorAction.REPORT)
                  .onUnmappableCharacter(CodingErrorAction.REPORT)
                  .decode(ByteBuffer.wrap(c.key, c.pos, end - c.pos))
                  .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("invalid UTF-8 in string at offset " + c.pos);
    }
    c.pos = next;
    return s;
  }

  /**
   * The string's bytes when it is all ASCII (the common key field: ids, names), else null: ASCII is
   * its own strict UTF-8, without an encoder per call.
   */
  private static byte[] asciiBytes(String s) {
    int n = s.length();
    byte[] out = new byte[n];
    for (int i = 0; i < n; i++) {
      char ch = s.charAt(i);
      if (ch >= 0x80) {
        return null;
      }
      out[i] = (byte) ch;
    }
    return out;
  }

  static String typeOf(Object v) {
    return v == null ? "null" : v.getClass().getSimpleName();
  }
}

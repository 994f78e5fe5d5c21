package dev.rekey.rowkey;

import java.io.ByteArrayOutputStream;
import java.io.Serializable;

/**
 * Encodes one field's value into key bytes and back. Implementations are stateless (apart from
 * their configuration), immutable and thread-safe. Problems are reported as
 * IllegalArgumentException whose message is the bare problem; {@link KeyLayout} adds the field name
 * and the key.
 */
public interface FieldCodec extends Serializable {

  /** Checks and converts a value to this codec's Java type (see {@link FieldType}). */
  Object coerce(Object value);

  /** The value's own bytes, used as hash input: the key bytes without a string terminator. */
  byte[] valueBytes(Object value);

  /** Appends the key bytes of the value (value bytes plus any terminator). */
  void encode(Object value, ByteArrayOutputStream out);

  /** Reads one value at the cursor and advances it. */
  Object decode(Cursor cursor);

  /**
   * Key bytes after the value bytes (a string's terminator): what {@link #decode} consumed is
   * {@link #valueBytes} of the value it returned followed by this many bytes, so a decoded key's
   * hash input can be taken from the key itself.
   */
  default int trailerLength() {
    return 0;
  }

  /** A read position in a row key. */
  final class Cursor {
    final byte[] key;
    int pos;

    public Cursor(byte[] key, int pos) {
      this.key = key;
      this.pos = pos;
    }

    public int remaining() {
      return key.length - pos;
    }

    public int pos() {
      return pos;
    }

    byte[] take(int n, String what) {
      if (remaining() < n) {
        throw new IllegalArgumentException(
            "key too short: "
                + what
                + " needs "
                + n
                + " bytes at offset "
                + pos
                + " but only "
                + remaining()
                + " remain");
      }
      byte[] out = java.util.Arrays.copyOfRange(key, pos, pos + n);
      pos += n;
      return out;
    }
  }
}

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
   * Checks one value at the cursor as {@link #decode} would, and advances past it, without building
   * the value (checking a table's keys, where the values are not used). Same exceptions as decode.
   */
  default void skip(Cursor cursor) {
    decode(cursor);
  }

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
      require(n, what);
      byte[] out = java.util.Arrays.copyOfRange(key, pos, pos + n);
      pos += n;
      return out;
    }

    /** The next 8 bytes as a big-endian long, advancing past them (no copy). */
    long takeLong(String what) {
      require(8, what);
      long v = 0;
      for (int i = 0; i < 8; i++) {
        v = (v << 8) | (key[pos + i] & 0xff);
      }
      pos += 8;
      return v;
    }

    /** The next 4 bytes as a big-endian int, advancing past them (no copy). */
    int takeInt(String what) {
      require(4, what);
      int v = 0;
      for (int i = 0; i < 4; i++) {
        v = (v << 8) | (key[pos + i] & 0xff);
      }
      pos += 4;
      return v;
    }

    /** Advances past n bytes. */
    void skip(int n, String what) {
      require(n, what);
      pos += n;
    }

    private void require(int n, String what) {
      if (remaining() < n) {
        throw new IllegalArgumentException(
            String.format(
                "key too short: %s needs %s bytes at offset %s but only %s remain",
                what, n, pos, remaining()));
      }
    }
  }
}

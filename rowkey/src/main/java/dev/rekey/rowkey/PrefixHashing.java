package dev.rekey.rowkey;

import java.io.ByteArrayOutputStream;
import java.io.Serializable;
import java.util.Arrays;

/**
 * A layout's salt or hash prefix: the hash input (the named fields' value bytes, or the whole
 * natural key) from a key's values or from its own bytes, and the prefix hashed from it.
 */
final class PrefixHashing implements Serializable {
  private static final long serialVersionUID = 1L;

  private final PrefixSpec prefix;
  private final FieldSpec[] fields;

  /** Positions of the prefix's hash input fields (empty: the whole natural key). */
  private final int[] hashInputIndexes;

  PrefixHashing(PrefixSpec prefix, FieldSpec[] fields, int[] hashInputIndexes) {
    this.prefix = prefix;
    this.fields = fields;
    this.hashInputIndexes = hashInputIndexes;
  }

  /** The hash input: the named fields' value bytes concatenated, or the whole natural key. */
  byte[] input(Object[] values, byte[] natural) {
    if (hashInputIndexes.length == 0) {
      return natural;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(32);
    for (int i : hashInputIndexes) {
      out.writeBytes(fields[i].codec().valueBytes(values[i]));
    }
    return out.toByteArray();
  }

  /**
   * The hash input of a key being decoded, from its own bytes ({@link FieldCodec#trailerLength}):
   * the same bytes {@link #input} builds from the decoded values, without encoding them again.
   */
  byte[] inputOfKey(byte[] rowKey, int prefixLength, int[] valueAt, int[] valueEnd) {
    if (hashInputIndexes.length == 0) {
      return Arrays.copyOfRange(rowKey, prefixLength, rowKey.length);
    }
    if (hashInputIndexes.length == 1) {
      int i = hashInputIndexes[0];
      return Arrays.copyOfRange(rowKey, valueAt[i], valueEnd[i]);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(32);
    for (int i : hashInputIndexes) {
      out.write(rowKey, valueAt[i], valueEnd[i] - valueAt[i]);
    }
    return out.toByteArray();
  }

  /** The prefix of a key with these values (natural: their encoded natural key). */
  byte[] prefix(Object[] values, byte[] natural) {
    return prefixOf(input(values, natural));
  }

  /** The last hash input a key was checked with and its prefix (read-only arrays). */
  private record PrefixMemo(byte[] input, byte[] prefix) {}

  // a table read in key order hands over one entity's rows in a row (events-v2: a user's events),
  // whose prefix input is the same: its hash is computed once, not per key. Racing threads only
  // replace each other's memo.
  private transient volatile PrefixMemo lastChecked;

  /** {@link #prefixOf} for a key being checked or decoded; the result must not be modified. */
  byte[] checkedPrefix(byte[] in) {
    if (hashInputIndexes.length == 0) {
      return prefixOf(in); // the whole key after the prefix: never the same twice
    }
    PrefixMemo m = lastChecked;
    if (m != null && Arrays.equals(m.input(), in)) {
      return m.prefix();
    }
    byte[] out = prefixOf(in);
    lastChecked = new PrefixMemo(in, out);
    return out;
  }

  private byte[] prefixOf(byte[] in) {
    switch (prefix.kind()) {
      case SALT:
        return new byte[] {(byte) prefix.hash().bucket(in, prefix.buckets())};
      case HASH_PREFIX:
        return Arrays.copyOf(prefix.hash().digest(in), prefix.bytes());
      default:
        return new byte[0];
    }
  }
}

package dev.rekey.rowkey;

import java.io.Serializable;
import java.util.Arrays;

/**
 * A row key read field by field with a layout's codecs, with every check decode makes: the prefix
 * recomputed from the fields, sub-buckets against their time field, no trailing bytes. What {@link
 * KeyLayout#decode}, {@link KeyLayout#check} and {@link KeyLayout#checkedField} share.
 */
final class KeyWalk implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final PrefixSpec prefix;
  private final FieldSpec[] fieldArray;
  private final int[] subBucketFrom;
  private final PrefixHashing hashing;

  /**
   * Per field, whether checking a key needs its value: a sub-bucket and the time it derives from.
   */
  private final boolean[] neededToCheck;

  KeyWalk(
      String layoutName,
      PrefixSpec prefix,
      FieldSpec[] fields,
      int[] subBucketFrom,
      PrefixHashing hashing) {
    this.name = layoutName;
    this.prefix = prefix;
    this.fieldArray = fields;
    this.subBucketFrom = subBucketFrom;
    this.hashing = hashing;
    this.neededToCheck = new boolean[fields.length];
    for (int i = 0; i < subBucketFrom.length; i++) {
      if (subBucketFrom[i] >= 0) {
        neededToCheck[i] = true;
        neededToCheck[subBucketFrom[i]] = true;
      }
    }
  }

  /**
   * Decode's checks; returns the values, every one if {@code build}, else those the checks need and
   * field {@code want} (if not -1).
   */
  Object[] walk(byte[] rowKey, boolean build, int want) {
    if (rowKey == null) {
      throw new KeyDecodeException(name, new byte[0], "key is null");
    }
    if (prefix.kind() == PrefixSpec.Kind.FULL_HASH) {
      throw new KeyDecodeException(
          name,
          rowKey,
          "not reversible: a full_hash key is the MD5 of the fields,"
              + " and a hash cannot be turned back into its input (keep the natural key in a column if you need it)");
    }
    int p = prefix.bytes();
    if (rowKey.length < p) {
      throw new KeyDecodeException(
          name, rowKey, "key too short: " + rowKey.length + " bytes, the prefix alone is " + p);
    }
    if (prefix.kind() == PrefixSpec.Kind.SALT && (rowKey[0] & 0xff) >= prefix.buckets()) {
      throw new KeyDecodeException(
          name,
          rowKey,
          String.format(
              "salt byte 0x%02x out of range [0, %d)", rowKey[0] & 0xff, prefix.buckets()));
    }
    FieldCodec.Cursor c = new FieldCodec.Cursor(rowKey, p);
    Object[] values = new Object[fieldArray.length];
    int[] valueAt = new int[values.length + 1]; // value bytes of field i: [valueAt[i], valueEnd[i])
    int[] valueEnd = new int[values.length];
    for (int i = 0; i < values.length; i++) {
      FieldSpec f = fieldArray[i];
      int at = c.pos();
      try {
        if (build || neededToCheck[i] || i == want) {
          values[i] = f.codec().decode(c);
        } else {
          f.codec().skip(c);
        }
      } catch (IllegalArgumentException e) {
        throw new KeyDecodeException(
            name, rowKey, "field '" + f.name() + "' at offset " + at + ": " + e.getMessage());
      }
      valueAt[i] = at;
      valueEnd[i] = c.pos() - f.codec().trailerLength();
    }
    if (c.remaining() > 0) {
      throw new KeyDecodeException(
          name,
          rowKey,
          c.remaining() + " trailing bytes after the last field (offset " + c.pos() + ")");
    }
    for (int i = 0; i < values.length; i++) {
      if (subBucketFrom[i] >= 0) {
        FieldSpec f = fieldArray[i];
        int bucket = f.subBucket().bucketFor((Long) values[subBucketFrom[i]]);
        if (bucket != (Integer) values[i]) {
          throw new KeyDecodeException(
              name,
              rowKey,
              String.format(
                  "sub-bucket %d in field '%s' does not match its time field '%s' (expected %d)",
                  values[i], f.name(), f.subBucket().from(), bucket));
        }
      }
    }
    if (p > 0) {
      byte[] expected = hashing.checkedPrefix(hashing.inputOfKey(rowKey, p, valueAt, valueEnd));
      if (!Arrays.equals(expected, 0, p, rowKey, 0, p)) {
        String what = prefix.kind() == PrefixSpec.Kind.SALT ? "salt byte" : "hash prefix";
        throw new KeyDecodeException(
            name,
            rowKey,
            what
                + " 0x"
                + Hex.of(Arrays.copyOf(rowKey, p))
                + " does not match the fields (expected 0x"
                + Hex.of(expected)
                + ")");
      }
    }
    return values;
  }
}

package dev.rekey.rowkey;

import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * A layout's field values as its codecs take them: names checked, values coerced to each field's
 * type and validated, sub-buckets derived from their time field, in key order (null = not given).
 */
final class FieldCoercion implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final FieldSpec[] fields;
  private final List<String> names;

  /** Per field, the position of the time field its sub-bucket derives from (-1: none). */
  private final int[] subBucketFrom;

  FieldCoercion(String layoutName, FieldSpec[] fields, List<String> names, int[] subBucketFrom) {
    this.name = layoutName;
    this.fields = fields;
    this.names = names;
    this.subBucketFrom = subBucketFrom;
  }

  /**
   * Checks names, fills derived sub-buckets and coerces values, in key order (null = not given);
   * {@code all} = every field required.
   */
  Object[] all(Map<String, Object> in, boolean all) {
    for (String k : in.keySet()) {
      if (!names.contains(k)) {
        throw new KeyEncodeException(
            k,
            "Cannot encode with layout "
                + name
                + ": unknown field '"
                + k
                + "' (layout fields: "
                + names
                + ")");
      }
    }
    Object[] given = new Object[fields.length];
    for (int i = 0; i < given.length; i++) {
      given[i] = in.get(fields[i].name());
    }
    return inKeyOrder(given, all);
  }

  /** As {@link #all}, for values already in key order (null = not given). */
  Object[] inKeyOrder(Object[] given, boolean all) {
    Object[] out = new Object[fields.length];
    for (int i = 0; i < out.length; i++) {
      FieldSpec f = fields[i];
      if (f.type() == FieldType.SUB_BUCKET) {
        // derived from its time field when that is given (below); alone, it is a read of one
        // sub-bucket (a range planned per sub-bucket), kept as given
        if (given[i] != null && given[subBucketFrom[i]] == null) {
          out[i] = coerce(f, given[i]);
        }
        continue;
      }
      if (given[i] == null) {
        if (all) {
          throw new KeyEncodeException(
              f.name(), "Cannot encode with layout " + name + ": missing field '" + f.name() + "'");
        }
        continue;
      }
      out[i] = coerce(f, given[i]);
    }
    deriveSubBuckets(out, given);
    return out;
  }

  private Object coerce(FieldSpec f, Object value) {
    try {
      Object v = f.codec().coerce(value);
      f.codec().valueBytes(v); // validates e.g. unpaired surrogates
      return v;
    } catch (IllegalArgumentException e) {
      throw new KeyEncodeException(
          f.name(),
          "Cannot encode with layout " + name + ": field '" + f.name() + "': " + e.getMessage());
    }
  }

  /** Fills each sub-bucket whose time field is set; a given sub-bucket must agree with it. */
  private void deriveSubBuckets(Object[] out, Object[] given) {
    for (int i = 0; i < out.length; i++) {
      int from = subBucketFrom[i];
      if (from < 0 || out[from] == null) {
        continue;
      }
      FieldSpec f = fields[i];
      int b = f.subBucket().bucketFor((Long) out[from]);
      if (given[i] != null && !Integer.valueOf(b).equals(given[i])) {
        throw new KeyEncodeException(
            f.name(),
            "Cannot encode with layout "
                + name
                + ": field '"
                + f.name()
                + "': sub-bucket "
                + given[i]
                + " does not match its time field '"
                + f.subBucket().from()
                + "' (expected "
                + b
                + ")");
      }
      out[i] = b;
    }
  }
}

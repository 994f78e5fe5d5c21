package dev.rekey.client;

import dev.rekey.rowkey.FieldSpec;
import dev.rekey.rowkey.FieldType;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.KeyRange;
import dev.rekey.rowkey.PrefixSpec;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.client.ClientUtil;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Turns a {@link ReadQuery} into the scans one layout needs (pure: no HBase). What each layout
 * shape can serve:
 *
 * <ul>
 *   <li><b>none</b>: one range — an entity (leading fields), a time window when time is the next
 *       key field after them, or the whole table.
 *   <li><b>salt</b>: the same ranges inside every bucket (N scans merged by the natural key), or
 *       inside the one bucket the given leading fields determine when the salt hashes only those
 *       fields.
 *   <li><b>hash_prefix</b>: only an entity whose prefix fields are all given (one range); without
 *       them rows are ordered by hash, and a natural-order read would merge up to 256^k prefixes:
 *       refused.
 *   <li><b>full_hash</b>: no range at all (the key is an MD5): refused; {@code get} still works.
 * </ul>
 *
 * Layouts with a {@code sub_bucket} field are refused for ranges (one entity spans hash-chosen
 * prefixes).
 */
public final class ReadPlanner {
  private ReadPlanner() {}

  public static ReadPlan plan(KeyLayout layout, ReadQuery q) {
    String cannot = "Cannot read layout " + layout.name() + " by " + describe(q) + ": ";
    PrefixSpec prefix = layout.prefix();
    if (prefix.kind() == PrefixSpec.Kind.FULL_HASH) {
      return ReadPlan.refused(
          cannot
              + "a full_hash key is the MD5 of the whole key, so rows have no order and no "
              + "range finds them (look rows up one by one with get)");
    }
    if (layout.fields().stream().anyMatch(f -> f.type() == FieldType.SUB_BUCKET)) {
      return ReadPlan.refused(
          cannot
              + "its sub_bucket field spreads one entity over prefixes chosen by a hash of "
              + "time, which this reader does not merge (use get, or `rekey scan` for windows)");
    }
    Map<String, Object> lead = q.leading();
    List<FieldSpec> fields = layout.fields();
    int m = lead.size();
    for (int i = 0; i < m; i++) {
      if (i >= fields.size() || !lead.containsKey(fields.get(i).name())) {
        return ReadPlan.refused(
            cannot
                + "the given fields "
                + lead.keySet()
                + " must be the leading fields in key "
                + "order "
                + layout.fieldNames()
                + " (a range can only fix a key's first fields)");
      }
    }
    if (prefix.kind() == PrefixSpec.Kind.HASH_PREFIX && !givesHashInput(prefix, lead)) {
      return ReadPlan.refused(
          cannot
              + "its rows are ordered by a hash of "
              + (prefix.inputFields().isEmpty() ? "the whole key" : prefix.inputFields())
              + ", not by the natural key; "
              + "a range exists only for one entity whose prefix fields are all given"
              + (prefix.inputFields().isEmpty()
                  ? " (none can be: use get)"
                  : " (give " + prefix.inputFields() + ")"));
    }
    byte[] leadBytes;
    try {
      leadBytes = encodeLeading(fields, lead, m);
    } catch (IllegalArgumentException e) {
      return ReadPlan.refused(cannot + e.getMessage());
    }

    // time bounds: [timeStart, timeStop) as key bytes to append after prefix|lead
    FieldSpec time = null;
    if (q.hasWindow()) {
      String tf = layout.timeField().orElse(null);
      if (tf == null) {
        return ReadPlan.refused(
            cannot + "the layout has no time field (add `time:` to the layout file)");
      }
      if (layout.fieldIndex(tf) != m) {
        return ReadPlan.refused(
            cannot
                + "time field '"
                + tf
                + "' is not the key field right after the given fields "
                + lead.keySet()
                + " (key order "
                + layout.fieldNames()
                + "), so the window is not a key range (give the "
                + "fields before it, or use `rekey scan`, which filters a whole-table scan)");
      }
      time = fields.get(m);
      if (q.from().getAsLong() == q.to().getAsLong()) {
        return new ReadPlan(List.of(), prefix.bytes(), q.limit(), q.reverse(), null);
      }
    }

    List<byte[]> prefixes = new ArrayList<>();
    List<Integer> buckets = new ArrayList<>();
    switch (prefix.kind()) {
      case NONE -> {
        prefixes.add(new byte[0]);
        buckets.add(-1);
      }
      case SALT -> {
        if (givesHashInput(prefix, lead)) {
          byte[] p = Arrays.copyOf(layout.entityRange(lead).start(), 1);
          prefixes.add(p);
          buckets.add(p[0] & 0xff);
        } else {
          for (int b = 0; b < prefix.buckets(); b++) {
            prefixes.add(new byte[] {(byte) b});
            buckets.add(b);
          }
        }
      }
      case HASH_PREFIX -> {
        prefixes.add(Arrays.copyOf(layout.entityRange(lead).start(), prefix.bytes()));
        buckets.add(-1);
      }
      default -> throw new AssertionError(prefix.kind());
    }

    List<BucketRange> ranges = new ArrayList<>(prefixes.size());
    for (int i = 0; i < prefixes.size(); i++) {
      byte[] base = concat(prefixes.get(i), leadBytes);
      KeyRange r;
      if (time == null) {
        r = new KeyRange(base, nextPrefix(base));
      } else {
        long from = q.from().getAsLong();
        long to = q.to().getAsLong();
        if (time.type() == FieldType.REVERSED_LONG) {
          if (to <= 0) {
            return new ReadPlan(List.of(), prefix.bytes(), q.limit(), q.reverse(), null);
          }
          // newest first: [enc(to - 1), next(enc(max(from, 0))))
          r =
              new KeyRange(
                  concat(base, time.codec().valueBytes(to - 1)),
                  nextPrefix(concat(base, time.codec().valueBytes(Math.max(from, 0)))));
        } else {
          byte[] s = time.codec().valueBytes(from);
          byte[] e = time.codec().valueBytes(to);
          if (Arrays.compareUnsigned(s, e) > 0) {
            return ReadPlan.refused(
                cannot
                    + "field '"
                    + time.name()
                    + "' is not sign-flipped, so negative times do "
                    + "not sort before positive ones (use times >= 0, or `signed: true` in the layout)");
          }
          r = new KeyRange(concat(base, s), concat(base, e));
        }
      }
      ranges.add(new BucketRange(buckets.get(i), r));
    }
    return new ReadPlan(ranges, prefix.bytes(), q.limit(), q.reverse(), null);
  }

  private static boolean givesHashInput(PrefixSpec prefix, Map<String, Object> lead) {
    return !prefix.inputFields().isEmpty() && lead.keySet().containsAll(prefix.inputFields());
  }

  private static byte[] encodeLeading(List<FieldSpec> fields, Map<String, Object> lead, int m) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < m; i++) {
      FieldSpec f = fields.get(i);
      try {
        f.codec().encode(f.codec().coerce(lead.get(f.name())), out);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("field '" + f.name() + "': " + e.getMessage(), e);
      }
    }
    return out.toByteArray();
  }

  private static String describe(ReadQuery q) {
    StringBuilder sb = new StringBuilder();
    if (!q.leading().isEmpty()) {
      sb.append(q.leading().keySet());
    }
    if (q.hasWindow()) {
      sb.append(sb.length() > 0 ? " and " : "").append("time window");
    }
    return sb.length() == 0 ? "the whole table" : sb.toString();
  }

  /**
   * The smallest key greater than every key starting with p (empty = open end when p is all 0xFF or
   * empty).
   */
  static byte[] nextPrefix(byte[] p) {
    return ClientUtil.calculateTheClosestNextRowKeyForPrefix(p);
  }

  static byte[] concat(byte[] a, byte[] b) {
    return Bytes.add(a, b);
  }
}

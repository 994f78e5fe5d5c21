package dev.rekey.rowkey;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one place that turns (layout, entity, time window) into key ranges, with the reasons a layout
 * cannot serve a read (pure: no HBase). The client's merged reads, the jobs' region reads and
 * repair all plan here. What each layout shape serves:
 *
 * <ul>
 *   <li><b>none</b>: one range — an entity (the leading fields), a time window when time is the
 *       next key field after them, or the whole table.
 *   <li><b>salt</b>: the same range inside every bucket, or inside the one bucket the given leading
 *       fields determine when the salt hashes only those fields.
 *   <li><b>hash_prefix</b>: only an entity whose prefix fields are all given; without them rows are
 *       in hash order.
 *   <li><b>full_hash</b>: no range at all (the key is an MD5).
 * </ul>
 *
 * A {@code sub_bucket} field right after the given fields (one hot entity spread over prefixes
 * chosen by a hash of its time) is read as one range per sub-bucket, the same read inside each;
 * {@link KeyRangePlan#mergeOffset()} tells a merge to compare what follows the sub-bucket byte.
 */
public final class KeyRangePlanner {
  private KeyRangePlanner() {}

  /** A time window [from, to) in epoch milliseconds, on the layout's time field. */
  public record Window(long from, long to) {}

  /**
   * The ranges of the rows whose fields equal {@code givenFields} (none: every row) and, with a
   * window, whose time field is in it. The given fields that lead the key fix the ranges; inside a
   * window, other fixed-width fields at a fixed offset are planned as {@link FieldMatch}es, checked
   * on each row of the ranges (a device's readings from a time-first table).
   *
   * @param window null for no window
   */
  public static KeyRangePlan plan(KeyLayout layout, Map<String, ?> givenFields, Window window) {
    Refusal refuse = new Refusal(layout, describe(givenFields, window));
    PrefixSpec prefix = layout.prefix();
    List<FieldSpec> fields = layout.fields();
    if (prefix.kind() == PrefixSpec.Kind.FULL_HASH) {
      return refuse.because(
          "a full_hash key is the MD5 of the whole key, so rows have no order and no range finds"
              + " them (look rows up one by one with get)");
    }
    // the given fields that lead the key fix the ranges; the others are matched on each row
    Map<String, Object> leading = new LinkedHashMap<>();
    int m = 0;
    while (m < fields.size() && givenFields.containsKey(fields.get(m).name())) {
      leading.put(fields.get(m).name(), givenFields.get(fields.get(m).name()));
      m++;
    }
    List<String> rest =
        givenFields.keySet().stream().filter(f -> !leading.containsKey(f)).sorted().toList();
    if (!rest.isEmpty() && (window == null || !layout.fieldNames().containsAll(rest))) {
      return refuse.because(
          "the given fields %s must be the leading fields in key order %s (a range can only fix"
              + " a key's first fields; inside a time window, later fixed-width fields are matched"
              + " on each row)",
          givenFields.keySet(), layout.fieldNames());
    }
    // a sub_bucket right after the given fields: every sub-bucket is read, so it counts as given
    FieldSpec spread =
        m < fields.size() && fields.get(m).type() == FieldType.SUB_BUCKET ? fields.get(m) : null;
    int fixed = spread == null ? m : m + 1;
    Set<String> given = new HashSet<>(leading.keySet());
    if (spread != null) {
      given.add(spread.name());
    }
    if (prefix.kind() == PrefixSpec.Kind.HASH_PREFIX && !givesHashInput(prefix, given)) {
      return refuse.because(
          "its rows are ordered by a hash of %s, not by the natural key; a range exists only for"
              + " one entity whose prefix fields are all given (%s)",
          prefix.inputFields().isEmpty() ? "the whole key" : prefix.inputFields(),
          prefix.inputFields().isEmpty() ? "none can be: use get" : "give " + prefix.inputFields());
    }
    FieldSpec time = null;
    if (window != null) {
      String tf = layout.timeField().orElse(null);
      if (tf == null) {
        return refuse.because("the layout has no time field (add `time:` to the layout file)");
      }
      if (layout.fieldIndex(tf) != fixed) {
        return refuse.because(
            "time field '%s' is not the key field right after the given fields %s (key order %s),"
                + " so the window is not a key range (give the fields before it, or read every key"
                + " with the window as a cell time range, as `rekey scan` does)",
            tf, leading.keySet(), layout.fieldNames());
      }
      if (window.from() > window.to()) {
        return refuse.because(
            "the window starts at %d, after its end %d", window.from(), window.to());
      }
      time = fields.get(fixed);
    }
    List<FieldMatch> matches = new ArrayList<>();
    for (String f : rest) {
      FieldMatch match;
      try {
        match = match(layout, f, givenFields.get(f));
      } catch (IllegalArgumentException e) {
        return refuse.because("field '%s': %s", f, e.getMessage());
      }
      if (match == null) {
        return refuse.because(
            "field '%s' is not among the key's first fields and not at a fixed offset of the key"
                + " (a field of variable length comes before it, or it has one), so it cannot be"
                + " matched on each row",
            f);
      }
      matches.add(match);
    }
    List<KeyLayout.Leading> leads = new ArrayList<>();
    try {
      if (spread == null) {
        leads.add(layout.leading(leading));
      } else {
        for (int sb = 0; sb < spread.subBucket().buckets(); sb++) {
          Map<String, Object> withSub = new LinkedHashMap<>(leading);
          withSub.put(spread.name(), sb);
          leads.add(layout.leading(withSub));
        }
      }
    } catch (IllegalArgumentException e) {
      return refuse.because("%s", e.getMessage());
    }
    // sub-bucket ranges share the given fields' bytes and differ in the sub-bucket byte after them:
    // rows merge by what follows it
    int mergeOffset =
        spread == null ? prefix.bytes() : prefix.bytes() + leads.get(0).natural().length;
    List<BucketRange> out = new ArrayList<>();
    if (window != null && window.from() == window.to()) {
      return new KeyRangePlan(
          out, prefix.bytes(), refuse.what, layout.name(), null, mergeOffset, matches);
    }
    for (KeyLayout.Leading lead : leads) {
      for (int bucket : buckets(prefix, lead)) {
        BucketRange r = range(prefix, lead, bucket, time, window);
        if (r == null) {
          return new KeyRangePlan(
              List.of(), prefix.bytes(), refuse.what, layout.name(), null, mergeOffset, matches);
        }
        if (r.range() == null) {
          return refuse.because(
              "field '%s' is not sign-flipped, so negative times do not sort before positive ones"
                  + " (use times >= 0, or `signed: true` in the layout)",
              time.name());
        }
        out.add(r);
      }
    }
    return new KeyRangePlan(
        out, prefix.bytes(), refuse.what, layout.name(), null, mergeOffset, matches);
  }

  /**
   * The range of one bucket's (or prefix's) rows: null for a window wholly before time 0 on a
   * reversed field (no rows), a range of null for a window that is not a range (unsigned times).
   */
  private static BucketRange range(
      PrefixSpec prefix, KeyLayout.Leading lead, int bucket, FieldSpec time, Window window) {
    // prefix | leading fields: the prefix they determine, or each salt bucket in turn
    byte[] base =
        lead.prefix() != null
            ? concat(lead.prefix(), lead.natural())
            : bucket >= 0 ? concat(new byte[] {(byte) bucket}, lead.natural()) : lead.natural();
    if (time == null) {
      return new BucketRange(bucket, new KeyRange(base, nextPrefix(base)));
    }
    if (time.type() == FieldType.REVERSED_LONG) {
      if (window.to() <= 0) {
        return null;
      }
      // newest first: [enc(to - 1), next(enc(max(from, 0))))
      return new BucketRange(
          bucket,
          new KeyRange(
              concat(base, time.codec().valueBytes(window.to() - 1)),
              nextPrefix(concat(base, time.codec().valueBytes(Math.max(window.from(), 0))))));
    }
    byte[] s = time.codec().valueBytes(window.from());
    byte[] e = time.codec().valueBytes(window.to());
    if (Arrays.compareUnsigned(s, e) > 0) {
      return new BucketRange(bucket, null);
    }
    return new BucketRange(bucket, new KeyRange(concat(base, s), concat(base, e)));
  }

  /** {@link #plan} of an entity or the whole table (no window). */
  public static KeyRangePlan plan(KeyLayout layout, Map<String, ?> leading) {
    return plan(layout, leading, null);
  }

  /** {@link #plan} of a time window alone. */
  public static KeyRangePlan window(KeyLayout layout, long from, long to) {
    return plan(layout, Map.of(), new Window(from, to));
  }

  /**
   * The one range of the rows whose leading fields equal these values: {@code prefix|fields ..
   * next(prefix|fields)}; for a terminated string last, {@code prefix|id|0x00 .. prefix|id|0x01}.
   *
   * @throws IllegalArgumentException with the reason when the layout cannot serve it, or serves it
   *     only as several ranges (a salt over fields not given)
   */
  public static KeyRange entityRange(KeyLayout layout, Map<String, ?> leading) {
    KeyRangePlan p = plan(layout, leading);
    if (!p.servable()) {
      throw new IllegalArgumentException(p.refusal().orElseThrow());
    }
    if (p.ranges().size() != 1) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot build one entity range for layout %s: its salt depends on fields not given"
                  + " (%s), so the entity is in all %d buckets; plan a read per bucket instead",
              layout.name(),
              layout.prefix().inputFields().isEmpty()
                  ? "the whole key"
                  : layout.prefix().inputFields(),
              p.ranges().size()));
    }
    return p.ranges().get(0).range();
  }

  /**
   * The smallest key greater than every key starting with p (empty = open end, when p is empty or
   * all 0xFF).
   */
  public static byte[] nextPrefix(byte[] p) {
    byte[] r = p.clone();
    for (int i = r.length - 1; i >= 0; i--) {
      if (r[i] != (byte) 0xFF) {
        r[i]++;
        return Arrays.copyOf(r, i + 1);
      }
    }
    return new byte[0];
  }

  /**
   * The bytes of field {@code name} at its offset in every key, or null when the offset or the
   * width is not fixed (a string before it or the field a string).
   */
  private static FieldMatch match(KeyLayout layout, String name, Object value) {
    int offset = layout.prefix().bytes();
    for (FieldSpec f : layout.fields()) {
      if (f.length() < 0) {
        return null;
      }
      if (f.name().equals(name)) {
        return new FieldMatch(name, offset, f.codec().valueBytes(f.codec().coerce(value)));
      }
      offset += f.length();
    }
    return null;
  }

  /** The buckets a read covers: every salt bucket, the one the fields determine, or -1. */
  private static int[] buckets(PrefixSpec prefix, KeyLayout.Leading lead) {
    if (prefix.kind() != PrefixSpec.Kind.SALT) {
      return new int[] {-1};
    }
    if (lead.prefix() != null) {
      return new int[] {lead.prefix()[0] & 0xff};
    }
    int[] all = new int[prefix.buckets()];
    Arrays.setAll(all, b -> b);
    return all;
  }

  private static boolean givesHashInput(PrefixSpec prefix, Set<String> given) {
    return !prefix.inputFields().isEmpty() && given.containsAll(prefix.inputFields());
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  private static String describe(Map<String, ?> leading, Window window) {
    String fields = leading.isEmpty() ? "" : leading.keySet().toString();
    if (window == null) {
      return fields.isEmpty() ? "the whole table" : fields;
    }
    return fields.isEmpty() ? "time window" : fields + " and time window";
  }

  /** Refusals of one read, each naming the read; the layout name is added by the plan. */
  private record Refusal(KeyLayout layout, String what) {
    KeyRangePlan because(String format, Object... args) {
      return new KeyRangePlan(
          List.of(),
          layout.prefix().bytes(),
          what,
          layout.name(),
          String.format(format, args),
          layout.prefix().bytes(),
          List.of());
    }
  }
}

package dev.rekey.read;

import dev.rekey.common.TimeWindow;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.KeyRange;
import dev.rekey.rowkey.KeyRangePlan;
import dev.rekey.rowkey.KeyRangePlanner;
import dev.rekey.rowkey.PrefixSpec;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a region-parallel read covers, derived from the layout (pure: no Spark, no HBase): the key
 * ranges that can hold a time window or one entity, or every key. A time window is a key range per
 * salt bucket only when the layout's time field comes first after the salt byte (or with no
 * prefix); otherwise time is not in key order and the window can only be a time range on the cells,
 * which lets the server skip cells but not blocks. {@link #within} cuts the ranges to one region,
 * so each region's task reads only its part.
 */
public final class ReadPlan implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final byte[] OPEN = new byte[0];

  /** How the read is limited. */
  public enum Pruning {
    /** Only the key ranges are read (a seek per range, whole blocks skipped). */
    KEY_RANGES,
    /** Every key is read; the window is a time range on the cells (Scan.setTimeRange). */
    CELL_TIME,
    /** Every key, every cell time. */
    NONE
  }

  private final Pruning pruning;
  private final List<KeyRange> ranges;
  private final String reason;

  /**
   * The layout the ranges come from (null without key ranges): the source's keys must decode with
   * it.
   */
  private final KeyLayout layout;

  private ReadPlan(Pruning pruning, List<KeyRange> ranges, String reason) {
    this(pruning, ranges, reason, null);
  }

  private ReadPlan(Pruning pruning, List<KeyRange> ranges, String reason, KeyLayout layout) {
    this.layout = layout;
    this.pruning = pruning;
    this.ranges = List.copyOf(ranges);
    this.reason = reason;
  }

  /** Every key. */
  public static ReadPlan all() {
    return new ReadPlan(Pruning.NONE, List.of(new KeyRange(OPEN, OPEN)), "no window");
  }

  /**
   * Exactly these key ranges (e.g. a backfill shard's source regions), in any layout: no key is
   * decoded to select them.
   */
  public static ReadPlan keyRanges(List<KeyRange> ranges, String why) {
    return new ReadPlan(Pruning.KEY_RANGES, merge(new ArrayList<>(ranges)), why);
  }

  /**
   * Every key, the window a time range on the cells, for the reason given (e.g. no layout to place
   * the window in the keys).
   */
  public static ReadPlan cellTime(String why) {
    return new ReadPlan(Pruning.CELL_TIME, List.of(new KeyRange(OPEN, OPEN)), why);
  }

  /**
   * Every key, for the reason given (e.g. the source's keys do not decode with the plan's layout).
   */
  public ReadPlan unpruned(String why) {
    return new ReadPlan(Pruning.NONE, List.of(new KeyRange(OPEN, OPEN)), why);
  }

  /**
   * True if the key decodes with the layout the ranges come from (always true without key ranges).
   */
  public boolean fits(byte[] key) {
    if (layout == null) {
      return true;
    }
    try {
      layout.decode(key);
      return true;
    } catch (RuntimeException e) { // KeyDecodeException
      return false;
    }
  }

  /**
   * Key ranges select the right rows only if the source's keys are in the plan's layout: a source
   * read with the wrong layout would silently select nothing (or the wrong rows). If its first row
   * key does not decode, every key is read instead, and the job reports the keys that do not decode
   * as it does without pruning.
   */
  ReadPlan fitting(byte[] firstRow) {
    if (firstRow == null || fits(firstRow)) {
      return this;
    }
    return unpruned(
        "the first row key 0x"
            + dev.rekey.rowkey.Hex.of(firstRow)
            + " does not decode with layout "
            + layoutName()
            + ", so its key ranges cannot select the window");
  }

  /** The layout the key ranges come from, for messages ("" without key ranges). */
  public String layoutName() {
    return layout == null ? "" : layout.name();
  }

  /**
   * The key ranges of several windows (sorted, not overlapping): each {@link #window}, joined by
   * {@link #or}; without key ranges for any of them, every key.
   */
  public static ReadPlan windows(KeyLayout layout, List<TimeWindow> windows) {
    ReadPlan p = null;
    for (TimeWindow w : windows) {
      ReadPlan one = window(layout, w.from(), w.to());
      p = p == null ? one : p.or(one);
    }
    return p;
  }

  /**
   * The key ranges holding rows whose time field is in [from, to) when the layout keeps time in key
   * order ({@link KeyRangePlanner}), else every key with the window as a cell time range, the
   * planner's reason said.
   */
  public static ReadPlan window(KeyLayout layout, long from, long to) {
    KeyRangePlan p = KeyRangePlanner.window(layout, from, to);
    if (!p.servable()) {
      return new ReadPlan(Pruning.CELL_TIME, List.of(new KeyRange(OPEN, OPEN)), p.reason());
    }
    String where =
        layout.prefix().kind() == PrefixSpec.Kind.SALT
            ? "after the salt byte, one range per bucket"
            : "one range";
    return new ReadPlan(
        Pruning.KEY_RANGES,
        merge(p.keyRanges()),
        "time field "
            + layout.timeField().orElseThrow()
            + " leads the key of layout "
            + layout.name()
            + " ("
            + where
            + ")",
        layout);
  }

  /**
   * The key ranges of the rows whose leading fields equal these values ({@link KeyRangePlanner}):
   * one, or one per salt bucket when the salt hashes fields not given; throws
   * IllegalArgumentException with the planner's reason when the layout cannot serve it.
   */
  public static ReadPlan entity(KeyLayout layout, Map<String, Object> leading) {
    KeyRangePlan p = KeyRangePlanner.plan(layout, leading);
    if (!p.servable()) {
      throw new IllegalArgumentException(p.refusal().orElseThrow());
    }
    String what =
        leading.entrySet().stream()
            .map(e -> e.getKey() + "=" + text(e.getValue()))
            .collect(Collectors.joining(","));
    int n = p.ranges().size();
    return new ReadPlan(
        Pruning.KEY_RANGES,
        merge(p.keyRanges()),
        "entity "
            + what
            + " of layout "
            + layout.name()
            + (n == 1 ? " (one key range)" : " (one key range per bucket)"),
        layout);
  }

  /**
   * Both limits at once: the key ranges of both, intersected; a cell time plan adds nothing to key
   * ranges.
   */
  public ReadPlan and(ReadPlan other) {
    if (other.pruning != Pruning.KEY_RANGES) {
      return this;
    }
    if (pruning != Pruning.KEY_RANGES) {
      return other;
    }
    List<KeyRange> out = new ArrayList<>();
    for (KeyRange a : ranges) {
      for (KeyRange b : other.ranges) {
        KeyRange c = clip(a, b.start(), b.stop());
        if (c != null) {
          out.add(c);
        }
      }
    }
    return new ReadPlan(Pruning.KEY_RANGES, merge(out), reason + "; " + other.reason, layout);
  }

  /**
   * Either limit: the key ranges of both, joined (several windows of one layout); without key
   * ranges on either side, the broader plan (that side's).
   */
  public ReadPlan or(ReadPlan other) {
    if (!other.keyRanges()) {
      return other;
    }
    if (!keyRanges()) {
      return this;
    }
    List<KeyRange> both = new ArrayList<>(ranges);
    both.addAll(other.ranges);
    return new ReadPlan(Pruning.KEY_RANGES, merge(both), reason, layout);
  }

  public Pruning pruning() {
    return pruning;
  }

  public boolean keyRanges() {
    return pruning == Pruning.KEY_RANGES;
  }

  /** The ranges, sorted and not overlapping (one open range unless {@link #keyRanges()}). */
  public List<KeyRange> ranges() {
    return ranges;
  }

  /** Why this pruning, for the job's output. */
  public String reason() {
    return reason;
  }

  /** "key ranges" / "cell time range" / "every key", for the job's output. */
  public String describe() {
    return switch (pruning) {
      case KEY_RANGES ->
          ranges.size() + " key range" + (ranges.size() == 1 ? "" : "s") + ": " + reason;
      case CELL_TIME -> "every key, window as a cell time range: " + reason;
      case NONE -> "every key (" + reason + ")";
    };
  }

  /**
   * The plan's ranges cut to one region [start, end) (an empty end = the last region): what that
   * region's task reads. Empty if the region holds none of the plan.
   */
  public List<KeyRange> within(byte[] regionStart, byte[] regionEnd) {
    List<KeyRange> out = new ArrayList<>();
    for (KeyRange r : ranges) {
      KeyRange c = clip(r, regionStart, regionEnd);
      if (c != null) {
        out.add(c);
      }
    }
    return out;
  }

  /** r ∩ [start, stop), or null if empty (empty start = no start, empty stop = no end). */
  static KeyRange clip(KeyRange r, byte[] start, byte[] stop) {
    byte[] s = Arrays.compareUnsigned(r.start(), start) >= 0 ? r.start() : start;
    byte[] e = minStop(r.stop(), stop);
    if (e.length > 0 && Arrays.compareUnsigned(s, e) >= 0) {
      return null;
    }
    return new KeyRange(s, e);
  }

  private static byte[] minStop(byte[] a, byte[] b) {
    if (a.length == 0) {
      return b;
    }
    if (b.length == 0) {
      return a;
    }
    return Arrays.compareUnsigned(a, b) <= 0 ? a : b;
  }

  /** Sorted by start, overlapping or touching ranges joined, empty ones dropped. */
  static List<KeyRange> merge(List<KeyRange> in) {
    List<KeyRange> sorted = new ArrayList<>();
    for (KeyRange r : in) {
      if (r.stop().length == 0 || Arrays.compareUnsigned(r.start(), r.stop()) < 0) {
        sorted.add(r);
      }
    }
    sorted.sort(Comparator.comparing(KeyRange::start, Arrays::compareUnsigned));
    List<KeyRange> out = new ArrayList<>();
    for (KeyRange r : sorted) {
      if (!out.isEmpty()) {
        KeyRange last = out.get(out.size() - 1);
        byte[] lastStop = last.stop();
        if (lastStop.length == 0 || Arrays.compareUnsigned(r.start(), lastStop) <= 0) {
          byte[] stop =
              lastStop.length == 0 || r.stop().length == 0
                  ? OPEN
                  : Arrays.compareUnsigned(lastStop, r.stop()) >= 0 ? lastStop : r.stop();
          out.set(out.size() - 1, new KeyRange(last.start(), stop));
          continue;
        }
      }
      out.add(r);
    }
    return out;
  }

  private static String text(Object v) {
    return v instanceof byte[] b ? dev.rekey.rowkey.Hex.of(b) : String.valueOf(v);
  }

  @Override
  public String toString() {
    return "ReadPlan{" + pruning + " " + ranges + "}";
  }
}

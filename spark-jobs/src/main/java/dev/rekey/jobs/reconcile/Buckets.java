package dev.rekey.jobs.reconcile;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The time buckets of a reconcile run: [from, to) cut into buckets of {@code size} millis starting
 * at {@code from} (the last one may be shorter). Every bucket is listed, including empty ones, so a
 * lost hour shows up as a bucket with rows on one side and none on the other instead of silently
 * missing from the report.
 */
public final class Buckets implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * More buckets than this is almost certainly a typo (1s over a year) and would make an unreadable
   * report.
   */
  public static final int MAX_BUCKETS = 100_000;

  private final long from;
  private final long to;
  private final long size;
  private final int count;

  public Buckets(long fromInclusive, long toExclusive, long sizeMillis) {
    if (fromInclusive >= toExclusive) {
      throw new IllegalArgumentException(
          "Empty time range: --from "
              + TimeSpec.iso(fromInclusive)
              + " is not before --to "
              + TimeSpec.iso(toExclusive)
              + " (give --to after --from; --to is exclusive)");
    }
    if (sizeMillis <= 0) {
      throw new IllegalArgumentException(
          "The bucket size must be positive (got " + sizeMillis + " ms)");
    }
    long span = toExclusive - fromInclusive;
    if (span < 0) { // overflow: a range wider than Long.MAX_VALUE millis
      throw new IllegalArgumentException(
          "Time range too wide: " + fromInclusive + " .. " + toExclusive);
    }
    long n = (span - 1) / sizeMillis + 1;
    if (n > MAX_BUCKETS) {
      throw new IllegalArgumentException(
          "Too many buckets: "
              + n
              + " buckets of "
              + sizeMillis
              + " ms between "
              + TimeSpec.iso(fromInclusive)
              + " and "
              + TimeSpec.iso(toExclusive)
              + " (at most "
              + MAX_BUCKETS
              + "; use a larger --bucket or a shorter --from/--to range)");
    }
    this.from = fromInclusive;
    this.to = toExclusive;
    this.size = sizeMillis;
    this.count = (int) n;
  }

  public long from() {
    return from;
  }

  public long to() {
    return to;
  }

  public long size() {
    return size;
  }

  public int count() {
    return count;
  }

  /** The bucket index of a time, or -1 if it is outside [from, to). */
  public int indexOf(long millis) {
    if (millis < from || millis >= to) {
      return -1;
    }
    return (int) ((millis - from) / size);
  }

  public long start(int index) {
    check(index);
    return from + index * size;
  }

  /** Exclusive end of a bucket (the last one ends at {@code to}). */
  public long end(int index) {
    check(index);
    return index == count - 1 ? to : from + (index + 1) * size;
  }

  public List<Long> starts() {
    List<Long> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(start(i));
    }
    return out;
  }

  private void check(int index) {
    if (index < 0 || index >= count) {
      throw new IndexOutOfBoundsException("bucket " + index + " of " + count);
    }
  }
}

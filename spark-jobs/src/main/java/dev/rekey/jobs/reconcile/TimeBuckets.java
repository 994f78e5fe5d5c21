package dev.rekey.jobs.reconcile;

import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeWindow;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The time buckets of a reconcile run: [from, to) cut into buckets of {@code size} millis starting
 * at {@code from} (the last one may be shorter). Every bucket is listed, including empty ones, so a
 * lost hour shows up as a bucket with rows on one side and none on the other instead of silently
 * missing from the report.
 */
public final class TimeBuckets implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * More buckets than this is almost certainly a typo (1s over a year) and would make an unreadable
   * report.
   */
  public static final int MAX_BUCKETS = 100_000;

  private final TimeWindow range;
  private final long size;
  private final int count;

  /** [from, to) in buckets of {@code sizeMillis}; too many buckets is a usage error. */
  public TimeBuckets(TimeWindow range, long sizeMillis) {
    if (sizeMillis <= 0) {
      throw RekeyException.usage(
          "Invalid --bucket: the bucket size must be positive (got " + sizeMillis + " ms)");
    }
    long n = (range.to() - range.from() - 1) / sizeMillis + 1;
    if (n > MAX_BUCKETS) {
      throw RekeyException.usage(
          "Too many buckets: %s buckets of %s ms between %s and %s (at most %s;"
              + " use a larger --bucket or a shorter --from/--to range)",
          n, sizeMillis, TimeSpec.iso(range.from()), TimeSpec.iso(range.to()), MAX_BUCKETS);
    }
    this.range = range;
    this.size = sizeMillis;
    this.count = (int) n;
  }

  public TimeWindow range() {
    return range;
  }

  public long from() {
    return range.from();
  }

  public long to() {
    return range.to();
  }

  public long size() {
    return size;
  }

  public int count() {
    return count;
  }

  /** The bucket index of a time, or -1 if it is outside [from, to). */
  public int indexOf(long millis) {
    return range.contains(millis) ? (int) ((millis - from()) / size) : -1;
  }

  public long start(int index) {
    check(index);
    return from() + index * size;
  }

  /** Exclusive end of a bucket (the last one ends at {@code to}). */
  public long end(int index) {
    check(index);
    return index == count - 1 ? to() : from() + (index + 1) * size;
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
      throw new IndexOutOfBoundsException(String.format("bucket %s of %s", index, count));
    }
  }
}

package dev.rekey.jobs.reconcile;

import java.util.ArrayList;
import java.util.List;

/**
 * One line of a readable reconcile report: a mismatched bucket on its own, or a run of consecutive
 * buckets that all match (with rows, or empty on both sides) folded into one. Over two years of
 * hourly buckets with five differences the report then reads as about eleven lines instead of
 * 17,520.
 *
 * @param buckets the consecutive buckets of the line (one when it is a mismatch)
 */
public record TimeBucketRun(List<TimeBucketComparison> buckets) {
  public TimeBucketRun {
    if (buckets.isEmpty()) {
      throw new IllegalArgumentException("a run holds at least one bucket");
    }
    buckets = List.copyOf(buckets);
  }

  /**
   * The report's lines in time order: each mismatched bucket alone, each run of matching buckets as
   * one.
   */
  public static List<TimeBucketRun> of(List<TimeBucketComparison> all) {
    List<TimeBucketRun> runs = new ArrayList<>();
    List<TimeBucketComparison> matching = new ArrayList<>();
    for (TimeBucketComparison b : all) {
      if (b.matches()) {
        matching.add(b);
        continue;
      }
      if (!matching.isEmpty()) {
        runs.add(new TimeBucketRun(matching));
        matching.clear();
      }
      runs.add(new TimeBucketRun(List.of(b)));
    }
    if (!matching.isEmpty()) {
      runs.add(new TimeBucketRun(matching));
    }
    return runs;
  }

  /** Every bucket a line of its own (--all-buckets). */
  public static List<TimeBucketRun> each(List<TimeBucketComparison> all) {
    return all.stream().map(b -> new TimeBucketRun(List.of(b))).toList();
  }

  public TimeBucketComparison first() {
    return buckets.get(0);
  }

  public TimeBucketComparison last() {
    return buckets.get(buckets.size() - 1);
  }

  public int size() {
    return buckets.size();
  }

  public boolean single() {
    return buckets.size() == 1;
  }

  public boolean mismatch() {
    return single() && !first().matches();
  }

  public long start() {
    return first().start();
  }

  public long end() {
    return last().end();
  }

  public long emptyBuckets() {
    return buckets.stream().filter(TimeBucketComparison::empty).count();
  }

  public long oldRows() {
    return buckets.stream().mapToLong(b -> b.old().rows()).sum();
  }

  public long newRows() {
    return buckets.stream().mapToLong(b -> b.neu().rows()).sum();
  }

  public long oldCells() {
    return buckets.stream().mapToLong(b -> b.old().cells()).sum();
  }

  public long newCells() {
    return buckets.stream().mapToLong(b -> b.neu().cells()).sum();
  }

  /** The bucket's start, or "first start .. last start" for a run. */
  public String label() {
    return single()
        ? TimeSpec.iso(start())
        : TimeSpec.iso(start()) + " .. " + TimeSpec.iso(last().start());
  }

  /** "MISMATCH", "ok", "empty", or for a run "24 ok" / "8,000 empty" / "20 ok, 4 empty". */
  public String status() {
    if (single()) {
      return first().status();
    }
    long empty = emptyBuckets();
    long ok = size() - empty;
    if (empty == 0) {
      return String.format("%,d ok", ok);
    }
    return ok == 0
        ? String.format("%,d empty", empty)
        : String.format("%,d ok, %,d empty", ok, empty);
  }

  /** "yes"/"NO"/"-" for a bucket; for a matching run "yes" when digests were compared, else "-". */
  public String digestOk() {
    return first().digestOk();
  }
}

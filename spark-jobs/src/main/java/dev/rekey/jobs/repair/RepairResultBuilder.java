package dev.rekey.jobs.repair;

import dev.rekey.jobs.reconcile.TimeBuckets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A {@link RepairResult} built by name as a repair runs: what it starts from (the old side, the
 * buckets and how they were chosen), then what each phase found and wrote. {@link #build} gives
 * each repaired bucket its counts: a bucket an earlier run wrote keeps that run's counts, and a dry
 * run (never {@link #rechecked}) has none written or found again.
 */
final class RepairResultBuilder {
  private final String table;
  private final RepairResult.OldSide old;
  private final TimeBuckets timeBuckets;
  private final TreeSet<Integer> repaired;
  private final RepairResult.Selection selection;
  private Map<Integer, WriteCounts> earlier = Map.of();
  private Map<Integer, TimeBucketCounts> found = Map.of();
  private Map<Integer, WriteCounts> written = Map.of();
  private Map<Integer, TimeBucketCounts> after; // null until the re-check: a dry run's
  private RepairPath path;
  private boolean compacted;
  private Path mutationFile;

  /**
   * @param timeBuckets the run's time buckets
   * @param repaired the buckets repaired (of {@code timeBuckets})
   * @param comparedFirst whether they came from comparing every bucket first
   */
  RepairResultBuilder(
      String table,
      RepairResult.OldSide old,
      TimeBuckets timeBuckets,
      TreeSet<Integer> repaired,
      boolean comparedFirst) {
    this.table = table;
    this.old = old;
    this.timeBuckets = timeBuckets;
    this.repaired = new TreeSet<>(repaired);
    this.selection =
        new RepairResult.Selection(
            timeBuckets.from(),
            timeBuckets.to(),
            timeBuckets.size(),
            comparedFirst,
            comparedFirst ? timeBuckets.count() : repaired.size());
  }

  /** The buckets a killed run wrote (its checkpoint), skipped by this one. */
  RepairResultBuilder earlier(Map<Integer, WriteCounts> v) {
    earlier = v;
    return this;
  }

  /** What the comparison before writing found, per bucket, and the write path it chose. */
  RepairResultBuilder found(Map<Integer, TimeBucketCounts> found, RepairPath path) {
    this.found = found;
    this.path = path;
    return this;
  }

  /** True once delete markers hiding cells to put were compacted away. */
  RepairResultBuilder compacted(boolean v) {
    compacted = v;
    return this;
  }

  /** The dry run's mutation file (null: not a dry run). */
  RepairResultBuilder mutationFile(Path v) {
    mutationFile = v;
    return this;
  }

  /**
   * What this run wrote, per bucket, and the comparison after writing of the buckets that still
   * differ by digest.
   */
  RepairResultBuilder rechecked(
      Map<Integer, WriteCounts> written, Map<Integer, TimeBucketCounts> after) {
    this.written = written;
    this.after = after;
    return this;
  }

  RepairResult build() {
    List<TimeBucketRepair> buckets = new ArrayList<>();
    for (int b : repaired) {
      boolean resumed = earlier.containsKey(b);
      buckets.add(
          new TimeBucketRepair(
              b,
              timeBuckets.start(b),
              timeBuckets.end(b),
              resumed ? null : found.getOrDefault(b, TimeBucketCounts.NONE),
              after == null
                  ? null
                  : resumed ? earlier.get(b) : written.getOrDefault(b, WriteCounts.NONE),
              resumed,
              after == null ? null : after.getOrDefault(b, TimeBucketCounts.NONE)));
    }
    return new RepairResult(
        table,
        old,
        selection,
        new RepairResult.Write(path, compacted, mutationFile),
        buckets,
        RepairResult.Timings.NONE);
  }
}

package dev.rekey.jobs.repair;

import dev.rekey.jobs.common.ExitCodes;
import dev.rekey.jobs.common.JobResult;
import dev.rekey.jobs.common.Json;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The immutable outcome of a repair run: the old side's snapshot and its time, the write path, and
 * per repaired bucket what was found, written and found again.
 *
 * @param comparedFirst true when the buckets to repair came from comparing every bucket of [from,
 *     to) (not from a reconcile report)
 * @param compared buckets compared to choose the ones to repair
 * @param path the write path the size rule chose (null when nothing needed writing)
 * @param compacted regions major-compacted because delete markers hid cells to put
 * @param mutationFile the dry run's mutation file, or null
 * @param phases seconds per phase in the order they ran ({@link PhaseTimes}: snapshot, find
 *     buckets, compare, marker scan, compaction, write, re-check)
 * @param seconds the whole run
 */
public record RepairResult(
    String old,
    String snapshot,
    long snapshotTime,
    String table,
    long from,
    long to,
    long bucketMillis,
    boolean comparedFirst,
    int compared,
    RepairPath path,
    boolean compacted,
    Path mutationFile,
    List<BucketRepair> buckets,
    Map<String, Double> phases,
    double seconds)
    implements JobResult {

  public RepairResult {
    buckets = List.copyOf(buckets);
    phases = Collections.unmodifiableMap(new LinkedHashMap<>(phases));
  }

  /** This result with the run's phase times and its whole time. */
  RepairResult withPhases(Map<String, Double> p, double s) {
    return new RepairResult(
        old,
        snapshot,
        snapshotTime,
        table,
        from,
        to,
        bucketMillis,
        comparedFirst,
        compared,
        path,
        compacted,
        mutationFile,
        buckets,
        p,
        s);
  }

  public boolean dryRun() {
    return mutationFile != null;
  }

  /** True when every repaired bucket matches now (a dry run: false). */
  public boolean matches() {
    return !dryRun() && buckets.stream().allMatch(BucketRepair::matchesNow);
  }

  public long cellsPut() {
    return buckets.stream()
        .filter(b -> b.written() != null && !b.resumed())
        .mapToLong(b -> b.written().cellsPut())
        .sum();
  }

  public long cellsDeleted() {
    return buckets.stream()
        .filter(b -> b.written() != null && !b.resumed())
        .mapToLong(b -> b.written().cellsDeleted())
        .sum();
  }

  /** 0 when every repaired bucket matches now (or a dry run wrote its file), 3 otherwise. */
  @Override
  public int exitCode() {
    return dryRun() || matches() ? ExitCodes.OK : ExitCodes.MISMATCH;
  }

  @Override
  public String console() {
    return RepairReport.console(this);
  }

  /** repair.json. */
  @Override
  public String toJson() {
    return Json.pretty(RepairReport.json(this));
  }
}

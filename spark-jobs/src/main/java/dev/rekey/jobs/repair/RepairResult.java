package dev.rekey.jobs.repair;

import dev.rekey.jobs.common.ExitCodes;
import dev.rekey.jobs.common.JobResult;
import dev.rekey.jobs.common.Json;
import java.nio.file.Path;
import java.util.List;

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
    double seconds)
    implements JobResult {

  public RepairResult {
    buckets = List.copyOf(buckets);
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

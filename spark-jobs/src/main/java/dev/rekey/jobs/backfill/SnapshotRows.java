package dev.rekey.jobs.backfill;

import dev.rekey.common.Clusters;
import dev.rekey.jobs.backfill.plan.BackfillPlan;
import dev.rekey.jobs.backfill.plan.LiveRegions;
import dev.rekey.jobs.backfill.plan.PlanReader;
import dev.rekey.jobs.backfill.plan.RegionBoundaries;
import dev.rekey.jobs.backfill.write.WriteStep;
import dev.rekey.jobs.backfill.write.Written;
import dev.rekey.read.SnapshotPresence;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.spark.sql.SparkSession;

/**
 * The backfill's rows (run layer): one read of the source snapshot, planned per target from the
 * snapshot's regions and the target's ({@link PlanReader}), written by {@link WriteStep}; the
 * snapshot must outlive the read. {@code targets} are the run's, all of them (the refusal names
 * each).
 */
record SnapshotRows(
    SparkSession spark, Clusters clusters, List<PreparedTarget> targets, Consumer<String> progress)
    implements RowSource {

  /** {@code --resume} with a ledger in the target's staging dir. */
  @Override
  public boolean resumes(PreparedTarget t) throws IOException {
    return t.options().resume() && t.staging().fs.exists(t.staging().manifest());
  }

  /**
   * An earlier attempt that wrote its manifest had written every HFile: this attempt loads them
   * (its load record refuses a fresh write after a partial load); one that did not is written again
   * from the start.
   */
  @Override
  public boolean retryResumes(PreparedTarget t) throws IOException {
    return t.staging().fs.exists(t.staging().manifest());
  }

  /** The plan for the target's regions as they are now, its descriptor as pre-flight read it. */
  @Override
  public TargetRun plan(PreparedTarget t, Connection conn) throws IOException {
    RegionBoundaries live = LiveRegions.of(conn, t.table());
    BackfillPlan plan =
        PlanReader.plan(
            t.options(),
            clusters,
            live,
            t.target(),
            spark.sparkContext().defaultParallelism(),
            spark
                .sparkContext()
                .getConf()
                .getSizeAsBytes(Backfill.MIN_SPLIT_BYTES, Backfill.DEFAULT_MIN_SPLIT_BYTES));
    return new TargetRun(t.options(), plan, t.staging(), live, t.target());
  }

  @Override
  public List<Written> write(List<TargetRun> runs) throws IOException {
    return new WriteStep(spark, clusters, progress).write(runs);
  }

  /**
   * The source snapshot must have outlived the read: if it was deleted or expired meanwhile,
   * nothing is loaded (no manifest, so --resume cannot load the staged files).
   */
  @Override
  public void requireIntact() throws IOException {
    PreparedTarget first = targets.get(0);
    SnapshotPresence.requireAfterRead(
        clusters.old(),
        first.options().sourceSnapshot(),
        "Cannot backfill "
            + String.join(", ", targets.stream().map(t -> t.options().targetTable()).toList()),
        "Nothing was loaded and the staged HFiles were removed");
  }
}

package dev.rekey.jobs.backfill;

import dev.rekey.common.Clusters;
import dev.rekey.common.Job;
import dev.rekey.common.JobMetrics;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.load.LoadRecords;
import dev.rekey.jobs.backfill.plan.Preflight;
import dev.rekey.jobs.backfill.plan.RepeatedLoad;
import dev.rekey.jobs.backfill.staging.Staging;
import dev.rekey.jobs.backfill.write.WriteStep;
import dev.rekey.jobs.guardrails.GuardrailMode;
import dev.rekey.targets.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.spark.sql.SparkSession;

/**
 * The backfill action (run layer): pre-flight ({@link Preflight}) of every target, then the one
 * {@link BackfillPipeline} — locks, ledger and resume, the write of every target from one read of
 * the snapshot ({@link SnapshotRows}, {@link WriteStep}), manifest, bulk load, verification — with
 * each load recorded in the target's attributes ({@link LoadRecords}) and a run that would load the
 * same snapshot again refused ({@link RepeatedLoad}): {@code new Backfill(spark, hbaseConf,
 * options).execute(progress)}.
 */
public final class Backfill implements Job<BackfillResult> {
  /** The Hadoop configuration key of the default staging dirs' parent (rekey.properties). */
  public static final String STAGING_ROOT = "rekey.staging.root";

  /**
   * Spark conf key: the least source bytes (store files) per read task, so that a small source is
   * not cut into many tasks that each write a tiny HFile per target region.
   */
  public static final String MIN_SPLIT_BYTES = "spark.rekey.backfill.minSplitBytes";

  public static final String DEFAULT_MIN_SPLIT_BYTES = "64m";

  private final SparkSession spark;

  /** The target's cluster: its tables, the staging dir's filesystem, the load. */
  private final Configuration hbaseConf;

  private final Clusters clusters;
  private final BackfillOptions options;
  private Consumer<String> progress = s -> {};

  /** A backfill whose snapshot and target are on one cluster. */
  public Backfill(SparkSession spark, Configuration hbaseConf, BackfillOptions options) {
    this(spark, Clusters.one(hbaseConf), options);
  }

  /**
   * A backfill from the snapshot on {@code clusters.old()} (read from that cluster's filesystem in
   * place: no copy of the snapshot, no connection to that cluster) into the target on {@code
   * clusters.neu()}.
   */
  public Backfill(SparkSession spark, Clusters clusters, BackfillOptions options) {
    this.spark = spark;
    this.hbaseConf = clusters.neu();
    this.clusters = clusters;
    this.options = options;
  }

  /**
   * Runs the backfill; progress lines are the plan, the phase starts and per-region load/verify.
   * Cells that verification finds missing are a result with exit code 3, not an exception.
   */
  @Override
  public BackfillResult execute(Consumer<String> progress) {
    if (options.severalTargets()) {
      throw RekeyException.usage(
          "Cannot backfill %d targets with execute(): it returns one target's result (use"
              + " executeAll(), which returns each target's)",
          options.targets().size());
    }
    return executeAll(progress).targets().get(0);
  }

  /**
   * Runs the backfill for every target of the options ({@code --target TABLE=LAYOUT}, repeatable)
   * from one read of the snapshot; with one target, {@link #execute} as it is.
   */
  public BackfillResults executeAll(Consumer<String> progress) {
    this.progress = progress;
    try {
      return runAll();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Each target's pre-flight, then the {@link BackfillPipeline} fed by one read of the snapshot
   * ({@link SnapshotRows}); a dry run plans and estimates each target without locks or writes.
   */
  private BackfillResults runAll() throws IOException {
    String root = defaultStagingRoot();
    try (Connection conn = ConnectionFactory.createConnection(hbaseConf);
        Admin admin = conn.getAdmin()) {
      List<PreparedTarget> targets = new ArrayList<>();
      for (Target t : options.targets()) {
        BackfillOptions o = options.forTarget(t);
        TableName table = TableName.valueOf(o.targetTable());
        Staging staging = new Staging(o.stagingOr(root), hbaseConf);
        Preflight.Checked checked = new Preflight(o, clusters).check(admin, table, staging);
        targets.add(
            new PreparedTarget(
                o, table, staging, checked.target(), checked.snapshot().getCreationTime()));
      }
      SnapshotRows source = new SnapshotRows(spark, clusters, targets, progress);
      // counters published while the run goes (Spark's metrics sinks); the status file beside the
      // first target's ledger, never for a dry run (it writes nothing)
      try (JobMetrics metrics =
          JobMetrics.start(
              spark.sparkContext(),
              "backfill",
              String.format(
                  "%s from snapshot %s",
                  String.join(", ", options.targets().stream().map(Target::table).toList()),
                  options.sourceSnapshot()),
              options.dryRun() ? null : targets.get(0).staging().status(),
              hbaseConf)) {
        BackfillResults results;
        if (options.guardrails() != GuardrailMode.OFF && !options.dryRun()) {
          // before any lock or write: strict refuses here (a dry run checks in its own read)
          GuardrailCheck.check(spark, clusters, source.plan(targets.get(0), conn), progress);
        }
        if (options.dryRun()) {
          results = new BackfillResults(dryRun(conn, targets, source));
        } else {
          results =
              new BackfillResults(
                  new BackfillPipeline(spark, hbaseConf, RunKind.BACKFILL, progress)
                      .run(conn, admin, targets, source));
        }
        metrics.finish(results.exitCode() == dev.rekey.common.ExitCodes.OK);
        return results;
      }
    }
  }

  /**
   * One read per target: a dry run writes nothing, and each target's estimate is read as its own
   * write path reads.
   */
  private List<BackfillResult> dryRun(
      Connection conn, List<PreparedTarget> targets, SnapshotRows source) throws IOException {
    List<BackfillResult> results = new ArrayList<>();
    for (PreparedTarget p : targets) {
      BackfillPipeline.header(progress, targets, p.options());
      String earlier =
          LoadRecords.checkRepeat(
              p.options(), p.target(), p.staging(), p.snapshotCreated(), null, progress);
      TargetRun run = source.plan(p, conn);
      run.plan().lines(p.options().versions()).forEach(progress);
      results.add(DryRun.run(spark, clusters, run, earlier));
    }
    return results;
  }

  /**
   * The parent of the default staging dirs: {@value #STAGING_ROOT} (rekey.properties'
   * rekey.staging-root, passed as {@code spark.hadoop.rekey.staging.root}), else ~/.rekey-staging.
   */
  private String defaultStagingRoot() throws IOException {
    String root = hbaseConf.get(STAGING_ROOT);
    if (root != null && !root.isBlank()) {
      return root;
    }
    FileSystem fs = FileSystem.get(hbaseConf);
    return new Path(fs.getHomeDirectory(), ".rekey-staging").toString();
  }
}

package dev.rekey.jobs.backfill;

import dev.rekey.jobs.common.Clusters;
import dev.rekey.jobs.common.Job;
import dev.rekey.jobs.common.RekeyException;
import dev.rekey.jobs.common.RunOwner;
import dev.rekey.jobs.read.SnapshotPresence;
import dev.rekey.jobs.targets.EachTarget;
import dev.rekey.jobs.targets.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The backfill action (run layer): pre-flight → plan ({@link BackfillPlan}, with the target's live
 * regions and staging dir one {@link TargetRun}) → write the target's HFiles ({@link WriteStep},
 * checked into the ledger by {@link WriteOutcome}) → bulk load a copy ({@link BulkLoadStep}) →
 * verify ({@link VerifyStep}), under a lock on the staging dir and the target; each load is
 * recorded in the target's attributes ({@link LoadRecords}) and a run that would load the same
 * snapshot again is refused ({@link RepeatCheck}): {@code new Backfill(spark, hbaseConf,
 * options).execute(progress)}.
 */
public final class Backfill implements Job<BackfillResult> {
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

  /** One target of a run, after its pre-flight. */
  private record Prepared(
      BackfillOptions options,
      TableName table,
      Staging staging,
      TableDescriptor target,
      long snapshotCreated) {}

  /**
   * Each target its pre-flight, locks, repeat check and ledger, as a run of its own; the targets
   * that are written (not resumed) are written from one read of the snapshot (one target: {@link
   * WriteStep}; several: {@link FanOutWrite}); then each target is loaded, verified and recorded in
   * turn.
   */
  private BackfillResults runAll() throws IOException {
    String root = defaultStagingRoot();
    try (Connection conn = ConnectionFactory.createConnection(hbaseConf);
        Admin admin = conn.getAdmin()) {
      List<Prepared> targets = new ArrayList<>();
      for (Target t : options.targets()) {
        BackfillOptions o = options.forTarget(t);
        TableName table = TableName.valueOf(o.targetTable());
        Staging staging = new Staging(o.stagingOr(root), hbaseConf);
        Preflight.Checked checked = new Preflight(o, clusters).check(admin, table, staging);
        targets.add(
            new Prepared(
                o, table, staging, checked.target(), checked.snapshot().getCreationTime()));
      }
      List<BackfillResult> results = new ArrayList<>();
      if (options.dryRun()) {
        // one read per target: a dry run writes nothing, and each target's estimate is read as
        // its own write path reads
        for (Prepared p : targets) {
          header(p.options());
          String earlier =
              LoadRecords.checkRepeat(
                  p.options(), p.target(), p.staging(), p.snapshotCreated(), null, progress);
          TargetRun run = targetRun(p.options(), conn, p.table(), p.target(), p.staging());
          run.plan().lines(p.options().versions()).forEach(progress);
          results.add(DryRun.run(spark, clusters, run, earlier));
        }
        return new BackfillResults(results);
      }
      Deque<RunLock> locks = new ArrayDeque<>();
      try {
        for (Prepared p : targets) {
          String verb = "backfill " + p.table();
          locks.push(
              RunLock.take(
                  p.staging().lock(),
                  hbaseConf,
                  verb,
                  "staging dir " + p.staging().root,
                  progress));
          locks.push(
              RunLock.take(
                  RunLock.targetPath(hbaseConf, admin, p.table()),
                  hbaseConf,
                  verb,
                  "target table " + p.table(),
                  progress));
        }
        return executeAll(conn, admin, targets);
      } finally {
        while (!locks.isEmpty()) {
          locks.pop().close();
        }
      }
    }
  }

  private BackfillResults executeAll(Connection conn, Admin admin, List<Prepared> targets)
      throws IOException {
    Manifest[] manifests = new Manifest[targets.size()];
    String[] earlier = new String[targets.size()];
    List<Integer> toWrite = new ArrayList<>();
    List<TargetRun> runs = new ArrayList<>();
    for (int i = 0; i < targets.size(); i++) {
      Prepared p = targets.get(i);
      BackfillOptions o = p.options();
      if (o.resume() && p.staging().fs.exists(p.staging().manifest())) {
        header(o);
        manifests[i] = Ledger.read(p.staging(), o, p.table());
        earlier[i] =
            LoadRecords.checkRepeat(
                o,
                admin.getDescriptor(p.table()),
                p.staging(),
                p.snapshotCreated(),
                manifests[i].writtenAt(),
                progress);
        Ledger.resume(p.staging(), manifests[i], progress);
      } else {
        earlier[i] =
            LoadRecords.checkRepeat(
                o,
                admin.getDescriptor(p.table()),
                p.staging(),
                p.snapshotCreated(),
                null,
                progress);
        toWrite.add(i);
        runs.add(targetRun(o, conn, p.table(), p.target(), p.staging()));
      }
    }
    double writeSeconds = 0;
    if (!runs.isEmpty()) {
      for (TargetRun run : runs) {
        run.staging().clean();
      }
      long t0 = System.nanoTime();
      List<WriteStep.Written> written =
          runs.size() == 1
              ? List.of(new WriteStep(spark, clusters, progress).write(runs.get(0)))
              : new FanOutWrite(spark, clusters, progress).write(runs);
      // every target's write is checked before any is loaded: a refused one loads nothing
      for (int j = 0; j < runs.size(); j++) {
        header(runs.get(j).options());
        manifests[toWrite.get(j)] = WriteOutcome.manifest(runs.get(j), written.get(j), progress);
      }
      writeSeconds = (System.nanoTime() - t0) / 1e9;
      try {
        requireSnapshot();
      } catch (RekeyException gone) {
        for (TargetRun run : runs) {
          run.staging().clean();
        }
        throw gone;
      }
      for (int i : toWrite) {
        targets.get(i).staging().writeJson(targets.get(i).staging().manifest(), manifests[i]);
      }
    }
    List<BackfillResult> results = new ArrayList<>();
    for (int i = 0; i < targets.size(); i++) {
      Prepared p = targets.get(i);
      header(p.options());
      results.add(
          finish(
              p.options(),
              conn,
              admin,
              p.staging(),
              p.table(),
              manifests[i],
              earlier[i],
              p.snapshotCreated(),
              toWrite.contains(i) ? writeSeconds : 0));
    }
    return new BackfillResults(results);
  }

  /** With several targets, the line that says which one the next lines are about. */
  private void header(BackfillOptions o) {
    if (options.severalTargets()) {
      progress.accept(EachTarget.header(o.targetTable(), o.targetLayout()));
    }
  }

  /** Loads, verifies and records one target's written (or resumed) manifest: its result. */
  private BackfillResult finish(
      BackfillOptions o,
      Connection conn,
      Admin admin,
      Staging staging,
      TableName table,
      Manifest manifest,
      String earlier,
      long snapshotCreated,
      double writeSeconds)
      throws IOException {
    double loadSeconds = 0;
    double verifySeconds = 0;
    if (!o.noLoad()) {
      boolean unfinished =
          manifest.regions().stream().anyMatch(r -> r.state() != RegionState.VERIFIED);
      LoadRecord loading =
          LoadRecord.of(
              manifest,
              staging.root.toString(),
              snapshotCreated,
              LoadRecord.State.LOADING,
              RunOwner.line(),
              Instant.now());
      long t1 = System.nanoTime();
      manifest =
          new BulkLoadStep(
                  JavaSparkContext.fromSparkContext(spark.sparkContext()), hbaseConf, progress)
              .load(
                  conn,
                  staging,
                  table,
                  manifest,
                  () -> LoadRecords.recordLoading(admin, table, loading, progress));
      loadSeconds = (System.nanoTime() - t1) / 1e9;
      long t2 = System.nanoTime();
      manifest =
          new VerifyStep(spark, hbaseConf, progress, o.verifyRows())
              .verify(conn, staging, table, manifest);
      verifySeconds = (System.nanoTime() - t2) / 1e9;
      if (unfinished) {
        LoadRecords.recordOutcome(admin, table, loading, manifest, progress);
      }
    }
    BackfillResult result =
        new BackfillResult(
            o.targetTable(),
            o.sourceSnapshot(),
            staging.root.toString(),
            manifest.writePath(),
            BackfillResult.Outcome.of(!o.noLoad(), manifest.regions()),
            manifest.accounting(),
            manifest.versions(),
            manifest.olderVersionsNotCopied(),
            manifest.regions(),
            new BackfillResult.Timings(writeSeconds, loadSeconds, verifySeconds),
            earlier);
    staging.writeJson(staging.result(), result);
    return result;
  }

  /**
   * The source snapshot must have outlived the read: if it was deleted or expired meanwhile, the
   * caller removes the staged HFiles and nothing is loaded (no manifest, so --resume cannot load
   * them).
   */
  private void requireSnapshot() throws IOException {
    SnapshotPresence.requireAfterRead(
        clusters.old(),
        options.sourceSnapshot(),
        "Cannot backfill "
            + String.join(", ", options.targets().stream().map(Target::table).toList()),
        "Nothing was loaded and the staged HFiles were removed");
  }

  /** The run for the target's regions as they are now, and the plan for them. */
  private TargetRun targetRun(
      BackfillOptions o, Connection conn, TableName table, TableDescriptor target, Staging staging)
      throws IOException {
    RegionBoundaries live = LiveRegions.of(conn, table);
    BackfillPlan plan =
        PlanReader.plan(
            o,
            clusters,
            live,
            target,
            spark.sparkContext().defaultParallelism(),
            spark
                .sparkContext()
                .getConf()
                .getSizeAsBytes(MIN_SPLIT_BYTES, DEFAULT_MIN_SPLIT_BYTES));
    return new TargetRun(o, plan, staging, live, target);
  }

  private String defaultStagingRoot() throws IOException {
    FileSystem fs = FileSystem.get(hbaseConf);
    return new Path(fs.getHomeDirectory(), ".rekey-staging").toString();
  }
}

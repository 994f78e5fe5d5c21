package dev.rekey.jobs.backfill;

import dev.rekey.common.ObjectStores;
import dev.rekey.common.OutputReach;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.load.LoadRecords;
import dev.rekey.jobs.backfill.staging.Ledger;
import dev.rekey.jobs.backfill.staging.Manifest;
import dev.rekey.jobs.backfill.staging.RunLock;
import dev.rekey.jobs.backfill.write.WriteOutcome;
import dev.rekey.jobs.backfill.write.Written;
import dev.rekey.targets.EachTarget;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.spark.sql.SparkSession;

/**
 * The one backfill pipeline (run layer), for one or several targets: lock each target's staging dir
 * and table ({@link RunLock}) → per target, resume its ledger ({@link Ledger}) or plan its write →
 * write every written target from one {@link RowSource} → check each write into its manifest
 * ({@link WriteOutcome}) before any is loaded → load, verify and record each target in turn ({@link
 * LoadAndVerify}). A backfill feeds it a snapshot read ({@link SnapshotRows}), a repair the rows it
 * wants written ({@link KeyedRows}); what they do differently on purpose is the {@link RunKind}.
 */
final class BackfillPipeline {
  private final Configuration hbaseConf;
  private final RunKind kind;
  private final Consumer<String> progress;
  private final LoadAndVerify finish;
  private final SparkSession spark;

  /** A pipeline writing into the tables of {@code hbaseConf}'s cluster. */
  BackfillPipeline(
      SparkSession spark, Configuration hbaseConf, RunKind kind, Consumer<String> progress) {
    this.hbaseConf = hbaseConf;
    this.kind = kind;
    this.progress = progress;
    this.finish = new LoadAndVerify(spark, hbaseConf, kind, progress);
    this.spark = spark;
  }

  /** Runs every target under its locks: each target's result, in the order of {@code targets}. */
  List<BackfillResult> run(
      Connection conn, Admin admin, List<PreparedTarget> targets, RowSource source)
      throws IOException {
    for (PreparedTarget p : targets) {
      // executors write the HFiles there, the RegionServers read them: one host's disk will not do
      OutputReach.check(spark.sparkContext(), "--staging", p.staging().root, true);
    }
    Deque<RunLock> locks = new ArrayDeque<>();
    List<Boolean> retried = new ArrayList<>();
    try {
      for (PreparedTarget p : targets) {
        String verb = kind.verb() + " " + p.table();
        RunLock staging =
            RunLock.take(
                p.staging().lock(), hbaseConf, verb, "staging dir " + p.staging().root, progress);
        locks.push(staging);
        retried.add(staging.fromEarlierAttempt());
        locks.push(
            RunLock.take(
                RunLock.targetPath(hbaseConf, admin, p.table()),
                hbaseConf,
                verb,
                "target table " + p.table(),
                progress));
      }
      return locked(conn, admin, targets, source, retried);
    } finally {
      while (!locks.isEmpty()) {
        locks.pop().close();
      }
    }
  }

  /** With several targets, the line that says which one the next lines are about. */
  static void header(Consumer<String> progress, List<PreparedTarget> targets, BackfillOptions o) {
    if (targets.size() > 1) {
      progress.accept(EachTarget.header(o.targetTable(), o.targetLayout()));
    }
  }

  /**
   * @param retried per target: its staging dir was taken over from an earlier attempt of this
   *     application, whose written HFiles (if it wrote them all) this attempt loads as a --resume
   */
  private List<BackfillResult> locked(
      Connection conn,
      Admin admin,
      List<PreparedTarget> targets,
      RowSource source,
      List<Boolean> retried)
      throws IOException {
    Manifest[] manifests = new Manifest[targets.size()];
    String[] earlier = new String[targets.size()];
    List<Integer> toWrite = new ArrayList<>();
    List<TargetRun> runs = new ArrayList<>();
    for (int i = 0; i < targets.size(); i++) {
      PreparedTarget p = targets.get(i);
      boolean retryResumes = retried.get(i) && source.retryResumes(p);
      if (retryResumes) {
        progress.accept(
            "Continuing the run an earlier attempt of this application left in "
                + p.staging().root
                + ": its HFiles are written, so this attempt loads and verifies them (as --resume)");
      }
      if (retryResumes || source.resumes(p)) {
        header(progress, targets, p.options());
        manifests[i] = Ledger.read(p.staging(), p.options(), p.table());
        earlier[i] = repeatCheck(admin, p, manifests[i].writtenAt());
        Ledger.resume(p.staging(), manifests[i], progress);
      } else {
        earlier[i] = repeatCheck(admin, p, null);
        toWrite.add(i);
        runs.add(source.plan(p, conn));
      }
    }
    double writeSeconds;
    try {
      writeSeconds = runs.isEmpty() ? 0 : write(targets, runs, toWrite, manifests, source);
    } catch (IOException | RuntimeException e) {
      var s3 = onObjectStore(e, targets, "the HFile write");
      if (s3.isPresent()) {
        throw s3.get();
      }
      throw e;
    }
    List<BackfillResult> results = new ArrayList<>();
    for (int i = 0; i < targets.size(); i++) {
      PreparedTarget p = targets.get(i);
      header(progress, targets, p.options());
      double seconds = toWrite.contains(i) ? writeSeconds : 0;
      try {
        results.add(finish.finish(conn, admin, p, manifests[i], earlier[i], seconds));
      } catch (IOException | RuntimeException e) {
        var s3 = onObjectStore(e, List.of(p), "the bulk load and its verification");
        if (s3.isPresent()) {
          throw s3.get();
        }
        throw e;
      }
    }
    return results;
  }

  /**
   * {@code e} said as a failure of the S3 endpoint of a target's staging dir when it is one (the
   * endpoint stopped during {@code step}, or it refused the keys); else empty. The ledger keeps
   * what was done, so the next step is --resume.
   */
  private static java.util.Optional<RekeyException> onObjectStore(
      Exception e, List<PreparedTarget> targets, String step) {
    if (e instanceof RekeyException r && r.getMessage().contains("S3 endpoint ")) {
      return java.util.Optional.empty(); // said so already
    }
    for (PreparedTarget p : targets) {
      var s3 =
          ObjectStores.explain(
              "backfill " + p.table(),
              step,
              p.staging().root,
              p.staging().fs.getConf(),
              e,
              "rerun with --resume: the ledger keeps what was written and loaded");
      if (s3.isPresent()) {
        return s3;
      }
    }
    return java.util.Optional.empty();
  }

  /**
   * Every written target's HFiles and manifest; every target's write is checked before any is
   * loaded: a refused one loads nothing. The seconds the write took.
   */
  private double write(
      List<PreparedTarget> targets,
      List<TargetRun> runs,
      List<Integer> toWrite,
      Manifest[] manifests,
      RowSource source)
      throws IOException {
    for (TargetRun run : runs) {
      run.staging().clean();
    }
    long t0 = System.nanoTime();
    List<Written> written = source.write(runs);
    for (int j = 0; j < runs.size(); j++) {
      header(progress, targets, runs.get(j).options());
      manifests[toWrite.get(j)] = WriteOutcome.manifest(runs.get(j), written.get(j), progress);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    try {
      source.requireIntact();
    } catch (RekeyException gone) {
      for (TargetRun run : runs) {
        run.staging().clean();
      }
      throw gone;
    }
    for (int i : toWrite) {
      targets.get(i).staging().writeJson(targets.get(i).staging().manifest(), manifests[i]);
    }
    return seconds;
  }

  /**
   * A run that records its loads refuses to load a snapshot's cells again; the note on an earlier
   * load it goes past, or null.
   */
  private String repeatCheck(Admin admin, PreparedTarget p, String resumedRun) throws IOException {
    if (!kind.recordsLoads()) {
      return null;
    }
    return LoadRecords.checkRepeat(
        p.options(),
        admin.getDescriptor(p.table()),
        p.staging(),
        p.snapshotCreated(),
        resumedRun,
        progress);
  }
}

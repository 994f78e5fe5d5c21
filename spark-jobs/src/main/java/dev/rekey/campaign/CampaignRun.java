package dev.rekey.campaign;

import dev.rekey.admin.createtable.CreateTableResult;
import dev.rekey.admin.createtable.TableCreator;
import dev.rekey.common.AtomicFile;
import dev.rekey.common.Job;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.Backfill;
import dev.rekey.jobs.backfill.BackfillOptions;
import dev.rekey.jobs.backfill.BackfillResult;
import dev.rekey.jobs.backfill.plan.PlanReader;
import dev.rekey.jobs.backfill.plan.Shard;
import dev.rekey.jobs.backfill.staging.Staging;
import dev.rekey.jobs.reconcile.Reconcile;
import dev.rekey.jobs.reconcile.ReconcileOptions;
import dev.rekey.jobs.reconcile.ReconcileReport;
import dev.rekey.jobs.reconcile.ReconcileResult;
import dev.rekey.jobs.reconcile.SideSpec;
import dev.rekey.jobs.repair.Repair;
import dev.rekey.jobs.repair.RepairOptions;
import dev.rekey.jobs.repair.RepairResult;
import dev.rekey.read.SnapshotPresence;
import dev.rekey.targets.Target;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.spark.sql.SparkSession;

/**
 * A campaign (run layer): every table of the plan through create-table → snapshot → backfill
 * (whole, or shard after shard) → reconcile → repair where it differs → reconcile again, up to
 * {@code jobs_at_once} tables side by side, all in this one Spark application: each step calls the
 * job's own action ({@link TableCreator}, {@link Backfill}, {@link Reconcile}, {@link Repair}) on
 * the shared session, as the commands do. Each step's outcome goes into the state file as it ends
 * ({@link StateStore}); a step the state shows ended is not run again, so a killed campaign run
 * again resumes where it stopped. A table whose step fails stops; the others go on.
 */
public final class CampaignRun implements Job<CampaignStatus> {
  private final SparkSession spark;
  private final Configuration hbaseConf;
  private final CampaignPlan plan;
  private final StateStore store;

  public CampaignRun(
      SparkSession spark, Configuration hbaseConf, CampaignPlan plan, StateStore store) {
    this.spark = spark;
    this.hbaseConf = hbaseConf;
    this.plan = plan;
    this.store = store;
  }

  /** The name of the snapshot a campaign takes of a source table. */
  public static String snapshotName(CampaignPlan plan, CampaignPlan.TablePlan t) {
    return ("rekey-campaign-" + plan.name() + "-" + t.folderName())
        .replaceAll("[^A-Za-z0-9_.-]", "_");
  }

  /** Runs every table; the campaign's status once each has ended or stopped. */
  @Override
  public CampaignStatus execute(Consumer<String> progress) {
    progress.accept(
        String.format(
            "Campaign %s: %d table(s), %d at once; state %s",
            plan.name(), plan.tables().size(), plan.jobsAtOnce(), store.file()));
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(plan.jobsAtOnce(), plan.tables().size()),
            r -> {
              Thread th = new Thread(r, "campaign-table");
              th.setDaemon(true);
              return th;
            });
    try {
      List<Future<?>> running = new ArrayList<>();
      for (CampaignPlan.TablePlan t : plan.tables()) {
        Consumer<String> lines = s -> progress.accept("[" + t.id() + "] " + s);
        running.add(pool.submit(() -> table(t, lines)));
      }
      for (Future<?> f : running) {
        try {
          f.get();
        } catch (java.util.concurrent.ExecutionException e) {
          // a table's own failure is in its state; anything else is the campaign's
          throw RekeyException.cannot(e.getCause(), "Campaign %s: %s", plan.name(), e.getCause());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw RekeyException.cannot(e, "Campaign %s was interrupted", plan.name());
    } finally {
      pool.shutdownNow();
    }
    CampaignStatus status = status();
    writePage(status);
    return status;
  }

  public CampaignStatus status() {
    return CampaignStatus.of(plan, store.state(), store.file().toString());
  }

  /** The campaign's page in the report root: {@code <report_root>/<name>/campaign.html}. */
  public static Path page(CampaignPlan plan) {
    return plan.reportRoot().resolve(plan.name()).resolve("campaign.html");
  }

  static void writePage(CampaignPlan plan, CampaignStatus status) {
    AtomicFile.write(page(plan), status.html());
  }

  private void writePage(CampaignStatus status) {
    writePage(plan, status);
  }

  /** One table's steps, each skipped when the state shows it ended. */
  private void table(CampaignPlan.TablePlan t, Consumer<String> progress) {
    try (Connection conn = ConnectionFactory.createConnection(hbaseConf);
        Admin admin = conn.getAdmin()) {
      new TableSteps(t, progress, admin).run();
    } catch (StepFailed e) {
      progress.accept("stopped: " + e.getMessage());
    } catch (IOException | RuntimeException e) {
      progress.accept("stopped: " + e);
    }
  }

  /** A step failed: recorded, and the table stops. */
  private static final class StepFailed extends RuntimeException {
    StepFailed(String message) {
      super(message);
    }
  }

  /** What a step's work returns. */
  private record Outcome(CampaignState.Status status, Long rows, String result, String detail) {
    static Outcome done(Long rows, String result, String detail) {
      return new Outcome(CampaignState.Status.DONE, rows, result, detail);
    }
  }

  private interface Work {
    Outcome run() throws IOException;
  }

  private final class TableSteps {
    private final CampaignPlan.TablePlan t;
    private final Consumer<String> progress;
    private final Admin admin;

    TableSteps(CampaignPlan.TablePlan t, Consumer<String> progress, Admin admin) {
      this.t = t;
      this.progress = progress;
      this.admin = admin;
    }

    void run() throws IOException {
      for (CampaignPlan.TargetPlan x : t.targets()) {
        step(StepKey.of(StepKey.Kind.CREATE_TABLE, x.table()), () -> create(x));
      }
      step(StepKey.of(StepKey.Kind.SNAPSHOT), this::snapshot);
      String snapshot = table().snapshot();
      int shards = shards(snapshot);
      for (StepKey k : StepKey.backfill(shards)) {
        Outcome o = step(k, () -> backfill(snapshot, k.shard()));
        if (o.status() == CampaignState.Status.DIFFERS) {
          progress.accept(k.id() + ": cells missing after the load; the table stops here");
          return;
        }
      }
      for (CampaignPlan.TargetPlan x : t.targets()) {
        Outcome first =
            step(
                StepKey.of(StepKey.Kind.RECONCILE, x.table()),
                () -> reconcile(snapshot, x, "reconcile"));
        if (first.status() == CampaignState.Status.DIFFERS && t.repair()) {
          step(StepKey.of(StepKey.Kind.REPAIR, x.table()), () -> repair(snapshot, x));
          step(
              StepKey.of(StepKey.Kind.RECONCILE_AGAIN, x.table()),
              () -> reconcile(snapshot, x, "reconcile-again"));
        }
      }
    }

    private CampaignState.TableState table() {
      return store
          .state()
          .table(t.id())
          .orElse(new CampaignState.TableState(t.id(), null, null, List.of()));
    }

    /** Runs {@code work} unless the state shows the step ended; records it either way. */
    private Outcome step(StepKey key, Work work) {
      var earlier = table().step(key.id());
      if (earlier.isPresent() && earlier.get().status().ended()) {
        CampaignState.StepRecord r = earlier.get();
        progress.accept(key.id() + ": ended in an earlier run (" + r.result() + "), not run again");
        return new Outcome(r.status(), r.rows(), r.result(), r.detail());
      }
      if (earlier.isPresent()) {
        progress.accept(
            key.id() + ": " + earlier.get().status() + " in an earlier run: running it again");
      }
      progress.accept(key.id() + " ...");
      CampaignState.StepRecord began = store.begin(t.id(), key);
      Outcome o;
      try {
        o = work.run();
      } catch (IOException | RuntimeException e) {
        String why = e.getMessage() == null ? e.toString() : e.getMessage();
        store.end(t.id(), began, CampaignState.Status.FAILED, null, "failed", why);
        throw new StepFailed(key.id() + " failed: " + why);
      }
      store.end(t.id(), began, o.status(), o.rows(), o.result(), o.detail());
      progress.accept(key.id() + ": " + o.result());
      return o;
    }

    private Outcome create(CampaignPlan.TargetPlan x) throws IOException {
      CreateTableResult r =
          TableCreator.table(TableName.valueOf(x.table()))
              .families(x.families())
              .splitPoints(x.splitPoints())
              .settings(x.settings())
              .ifNotExists(true)
              .create(admin);
      return Outcome.done(null, r.created() ? "created" : "existed", r.summary());
    }

    /**
     * The plan's snapshot as it is, or one taken of the source table under the campaign's name (one
     * a killed run took before it could record it is used as it is).
     */
    private Outcome snapshot() throws IOException {
      String name = t.sourceSnapshot();
      String result = "given";
      if (name == null) {
        name = snapshotName(plan, t);
        if (SnapshotPresence.problem(hbaseConf, name).isEmpty()) {
          result = "taken earlier";
        } else {
          admin.snapshot(name, TableName.valueOf(t.sourceTable()));
          result = "taken";
        }
      }
      String taken = name;
      store.update(
          s ->
              s.with(
                  new CampaignState.TableState(
                      t.id(),
                      taken,
                      table().shards(),
                      s.table(t.id()).map(CampaignState.TableState::steps).orElse(List.of()))));
      return Outcome.done(null, result, "snapshot " + name);
    }

    /** The shard count: as first decided (the state keeps it), else from the plan and the size. */
    private int shards(String snapshot) throws IOException {
      Integer kept = table().shards();
      if (kept != null) {
        return kept;
      }
      int n =
          StepKey.shards(
              t.shards(),
              plan.shardAbove(),
              PlanReader.snapshotBytes(hbaseConf, snapshot),
              PlanReader.snapshotRegions(hbaseConf, snapshot));
      store.update(
          s -> {
            CampaignState.TableState ts = s.table(t.id()).orElseThrow();
            return s.with(new CampaignState.TableState(ts.id(), ts.snapshot(), n, ts.steps()));
          });
      if (n > 1) {
        progress.accept("backfill in " + n + " shards of the snapshot's regions");
      }
      return n;
    }

    /**
     * Every target from one read (of the shard), resuming the staging dir's ledger if a killed run
     * left one: a load begun is continued, never repeated (the load records refuse a repeat).
     */
    private Outcome backfill(String snapshot, String shard) {
      CampaignPlan.BackfillSettings s = t.backfill();
      BackfillOptions.Builder b =
          BackfillOptions.builder()
              .sourceSnapshot(snapshot)
              .sourceLayout(t.oldLayout())
              .splitsPerRegion(s.splitsPerRegion())
              .versions(s.versions())
              .families(s.families())
              .verifyRows(s.verifyRows())
              .maxQuarantined(s.maxQuarantined())
              .sortAlways(s.sortAlways())
              .shard(Shard.parse(shard));
      for (CampaignPlan.TargetPlan x : t.targets()) {
        b.target(Target.of(x.table(), x.layout()));
      }
      // several targets: <dir>/backfill-<target> each (BackfillOptions.forTarget); one: the dir
      b.staging(
          t.targets().size() > 1
              ? tableStaging()
              : tableStaging() + "/backfill-" + Target.folderName(t.targets().get(0).table()));
      BackfillOptions options = b.build();
      if (ledgerLeft(options)) {
        // a killed run left a ledger: continue it (a target without one is written anew)
        options = b.resume(true).build();
      }
      List<BackfillResult> results =
          new Backfill(spark, hbaseConf, options).executeAll(progress).targets();
      long rows = 0;
      int files = 0;
      List<String> missing = new ArrayList<>();
      for (BackfillResult r : results) {
        rows = Math.max(rows, r.accounting().written());
        files += r.filesWritten();
        r.notVerified().ifPresent(missing::add);
      }
      String summary =
          String.format(
              "%s, %,d rows, %d HFile(s) into %d target(s)",
              missing.isEmpty() ? "verified" : "NOT verified", rows, files, results.size());
      return new Outcome(
          missing.isEmpty() ? CampaignState.Status.DONE : CampaignState.Status.DIFFERS,
          rows,
          summary,
          missing.isEmpty() ? "staging " + tableStaging() : String.join("; ", missing));
    }

    /** Whether any target's staging dir holds a manifest a killed run of this step wrote. */
    private boolean ledgerLeft(BackfillOptions o) {
      try {
        for (Target x : o.targets()) {
          Staging s = new Staging(o.forTarget(x).stagingOr(tableStaging()), hbaseConf);
          if (s.fs.exists(s.manifest())) {
            return true;
          }
        }
        return false;
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    private String tableStaging() {
      return plan.stagingRoot() + "/" + plan.name() + "/" + t.folderName();
    }

    private Path reportDir(CampaignPlan.TargetPlan x) {
      return plan.reportRoot()
          .resolve(plan.name())
          .resolve(t.folderName())
          .resolve(Target.folderName(x.table()));
    }

    /** The snapshot backfilled vs the new table, per the plan's buckets. */
    private Outcome reconcile(String snapshot, CampaignPlan.TargetPlan x, String dir) {
      CampaignPlan.ReconcileSettings r = t.reconcile();
      Path out = reportDir(x).resolve(dir);
      ReconcileOptions o =
          ReconcileOptions.builder()
              .old(SideSpec.snapshot("old", snapshot, t.oldLayout()))
              .neu(SideSpec.table("new", x.table(), x.layout()))
              .bucket(r.bucket())
              .from(r.from())
              .to(r.to())
              .digest(r.digest())
              .versions(r.versions())
              .out(out.toString())
              .build();
      ReconcileResult result = new Reconcile(spark, hbaseConf, o).execute(progress);
      String report = "report " + out.resolve(ReconcileReport.HTML);
      if (result.matches()) {
        return Outcome.done(
            result.old().inRange(),
            String.format("green (%d buckets)", result.buckets().size()),
            report);
      }
      return new Outcome(
          CampaignState.Status.DIFFERS,
          result.old().inRange(),
          String.format(
              "%d of %d buckets differ", result.mismatchedBuckets(), result.buckets().size()),
          report);
    }

    /** The differing buckets of the first reconcile repaired from the snapshot. */
    private Outcome repair(String snapshot, CampaignPlan.TargetPlan x) {
      Path out = reportDir(x).resolve("repair");
      RepairOptions o =
          RepairOptions.builder()
              .old(SideSpec.snapshot("old", snapshot, t.oldLayout()))
              .neu(SideSpec.table("new", x.table(), x.layout()))
              .fromReconcile(reportDir(x).resolve("reconcile").resolve(ReconcileReport.JSON))
              .staging(tableStaging() + "/repair-" + Target.folderName(x.table()))
              .resume(true) // a killed repair's checkpoint goes on; none: a fresh run
              .out(out)
              .build();
      RepairResult r = new Repair(spark, hbaseConf, o).execute(progress);
      return Outcome.done(
          null, r.outcome().toString().toLowerCase(java.util.Locale.ROOT), "report " + out);
    }
  }
}

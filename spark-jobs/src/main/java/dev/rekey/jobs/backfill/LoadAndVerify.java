package dev.rekey.jobs.backfill;

import dev.rekey.common.RunOwner;
import dev.rekey.jobs.backfill.load.BulkLoadStep;
import dev.rekey.jobs.backfill.load.LoadRecord;
import dev.rekey.jobs.backfill.load.LoadRecords;
import dev.rekey.jobs.backfill.staging.Manifest;
import dev.rekey.jobs.backfill.staging.RegionState;
import dev.rekey.jobs.backfill.staging.Staging;
import dev.rekey.jobs.backfill.verify.VerifyStep;
import java.io.IOException;
import java.time.Instant;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The pipeline's last steps for one target (run layer): bulk load its written (or resumed) manifest
 * ({@link BulkLoadStep}), verify it ({@link VerifyStep}), record the load in the target's
 * attributes when the {@link RunKind} does ({@link LoadRecords}), and the target's result — kept in
 * the staging dir, or the dir cleaned once verified for a run whose staging is scratch.
 */
record LoadAndVerify(
    SparkSession spark, Configuration hbaseConf, RunKind kind, Consumer<String> progress) {

  /** Loads, verifies and records one target's manifest: its result. */
  BackfillResult finish(
      Connection conn,
      Admin admin,
      PreparedTarget p,
      Manifest manifest,
      String earlier,
      double writeSeconds)
      throws IOException {
    BackfillOptions o = p.options();
    Staging staging = p.staging();
    TableName table = p.table();
    double loadSeconds = 0;
    double verifySeconds = 0;
    if (!o.noLoad()) {
      boolean unfinished =
          manifest.regions().stream().anyMatch(r -> r.state() != RegionState.VERIFIED);
      LoadRecord loading =
          kind.recordsLoads()
              ? LoadRecord.of(
                  manifest,
                  staging.root.toString(),
                  p.snapshotCreated(),
                  LoadRecord.State.LOADING,
                  RunOwner.line(),
                  Instant.now())
              : null;
      long t1 = System.nanoTime();
      manifest =
          new BulkLoadStep(
                  JavaSparkContext.fromSparkContext(spark.sparkContext()), hbaseConf, progress)
              .load(
                  conn,
                  staging,
                  table,
                  manifest,
                  () -> {
                    if (loading != null) {
                      LoadRecords.recordLoading(admin, table, loading, progress);
                    }
                  });
      loadSeconds = (System.nanoTime() - t1) / 1e9;
      long t2 = System.nanoTime();
      manifest =
          new VerifyStep(spark, hbaseConf, progress, o.verifyRows())
              .verify(conn, staging, table, manifest);
      verifySeconds = (System.nanoTime() - t2) / 1e9;
      if (loading != null && unfinished) {
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
    keep(staging, result);
    return result;
  }

  /**
   * A backfill's result stays in its staging dir beside the manifest; a scratch staging dir keeps
   * only what a resume needs, so a verified one has nothing left to keep.
   */
  private void keep(Staging staging, BackfillResult result) throws IOException {
    if (!kind.scratchStaging()) {
      staging.writeJson(staging.result(), result);
    } else if (result.outcome() == BackfillResult.Outcome.VERIFIED) {
      staging.clean(); // nothing left to resume: the ledger goes with the files
    }
  }
}

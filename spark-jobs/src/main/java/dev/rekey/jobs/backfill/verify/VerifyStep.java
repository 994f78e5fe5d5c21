package dev.rekey.jobs.backfill.verify;

import dev.rekey.jobs.backfill.staging.Manifest;
import dev.rekey.jobs.backfill.staging.RegionEntry;
import dev.rekey.jobs.backfill.staging.RegionState;
import dev.rekey.jobs.backfill.staging.Staging;
import dev.rekey.read.TemporarySnapshots;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The backfill's verify step: each LOADED region becomes VERIFIED when its loaded HFiles are store
 * files of the target ({@link LoadedFiles}), or, where that cannot tell or {@code --verify rows}
 * asks, when every cell it wrote is in a snapshot of the target ({@link SnapshotVerification},
 * {@link RegionVerification}).
 */
public final class VerifyStep {
  private final SparkSession spark;
  private final Configuration hbaseConf;
  private final Consumer<String> progress;
  private final boolean verifyRows;

  public VerifyStep(
      SparkSession spark, Configuration hbaseConf, Consumer<String> progress, boolean verifyRows) {
    this.spark = spark;
    this.hbaseConf = hbaseConf;
    this.progress = progress;
    this.verifyRows = verifyRows;
  }

  /**
   * A region is verified when every row its kept HFiles hold is in the table ({@link
   * RegionVerification}, run as a Spark job on a snapshot taken after the load: {@link
   * SnapshotVerification}); rows others wrote into the same key range meanwhile (a migration's dual
   * writer) are reported, not counted as a failure.
   */
  public Manifest verify(Connection conn, Staging staging, TableName table, Manifest m)
      throws IOException {
    sweepKilledRuns(conn, table);
    List<RegionEntry> loaded =
        m.regions().stream().filter(r -> r.state() == RegionState.LOADED).toList();
    List<RegionEntry> verified = new ArrayList<>();
    List<RegionEntry> byCells = loaded;
    if (!verifyRows && !loaded.isEmpty()) {
      Optional<Set<LoadedFiles.Fingerprint>> storeFiles = LoadedFiles.inTable(hbaseConf, table);
      if (storeFiles.isEmpty()) {
        progress.accept(
            String.format(
                "  cannot read the store files of %s under the HBase root: checking cells instead",
                table));
      } else {
        Map<Integer, LoadedFiles.Outcome> byFiles =
            LoadedFiles.check(staging, loaded, storeFiles.get(), hbaseConf);
        byCells = new ArrayList<>();
        for (RegionEntry r : loaded) {
          LoadedFiles.Outcome o = byFiles.get(r.index());
          if (o.matched()) {
            m = m.withRegion(r.withState(RegionState.VERIFIED));
            verified.add(r);
          } else {
            progress.accept("  region " + r.index() + ": " + o.reason() + "; checking its cells");
            byCells.add(r);
          }
        }
        progress.accept(
            String.format(
                "Verified %d regions by their loaded HFiles (store files with the same keys and "
                    + "cell counts)%s",
                verified.size(),
                byCells.isEmpty() ? "" : "; " + byCells.size() + " by their cells"));
      }
    }
    Map<Integer, RegionVerification.Outcome> checks = cellChecks(conn, staging, table, byCells);
    long others = 0;
    for (RegionEntry r : byCells) {
      RegionVerification.Outcome c = checks.get(r.index());
      others += c.otherRows();
      if (c.complete(r.rows(), r.cells())) {
        m = m.withRegion(r.withState(RegionState.VERIFIED));
        verified.add(r);
      } else {
        progress.accept(missing(r, c));
      }
    }
    staging.writeJson(staging.manifest(), m);
    for (RegionEntry r :
        verified) { // only once the ledger says so: a crash before leaves them for --resume
      staging.fs.delete(staging.region(r.index()), true);
    }
    if (others > 0) {
      progress.accept(
          String.format(
              "  %,d rows in %s besides the backfill's (written meanwhile, e.g. by dual writes)",
              others, table));
    }
    return m;
  }

  /**
   * This run holds the target's lock: any verify snapshot of the target left now is a killed run's;
   * removed.
   */
  private void sweepKilledRuns(Connection conn, TableName table) throws IOException {
    try (Admin admin = conn.getAdmin()) {
      TemporarySnapshots.remove(
          admin,
          hbaseConf,
          TemporarySnapshots.find(
              admin, hbaseConf, TemporarySnapshots.prefix("verify", table), table, Long.MAX_VALUE));
    }
  }

  /** The cell check of {@code regions} on a snapshot taken now (none: no check). */
  private Map<Integer, RegionVerification.Outcome> cellChecks(
      Connection conn, Staging staging, TableName table, List<RegionEntry> regions)
      throws IOException {
    if (regions.isEmpty()) {
      return Map.of();
    }
    try (Admin admin = conn.getAdmin()) {
      return SnapshotVerification.run(
          JavaSparkContext.fromSparkContext(spark.sparkContext()),
          admin,
          hbaseConf,
          table,
          staging,
          regions);
    }
  }

  /** The line of a region whose cells are not all in the table. */
  private static String missing(RegionEntry r, RegionVerification.Outcome c) {
    return String.format(
        "  region %d [%s, %s): %,d of the %,d cells written (%,d rows; manifest: %,d "
            + "cells, %,d rows) are missing from the table",
        r.index(),
        r.startHex(),
        r.endHex(),
        c.missingCells(),
        c.writtenCells(),
        c.writtenRows(),
        r.cells(),
        r.rows());
  }
}

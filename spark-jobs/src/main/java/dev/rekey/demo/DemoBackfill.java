package dev.rekey.demo;

import dev.rekey.admin.createtable.CreateTableResult;
import dev.rekey.admin.createtable.FamilySpec;
import dev.rekey.admin.createtable.SplitChoice;
import dev.rekey.admin.createtable.TableCreator;
import dev.rekey.common.LayoutFiles;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.Backfill;
import dev.rekey.jobs.backfill.BackfillOptions;
import dev.rekey.jobs.backfill.BackfillResult;
import dev.rekey.jobs.backfill.staging.RegionEntry;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.spark.sql.SparkSession;

/**
 * The demo's rekeyed tables: telemetry_v2 created pre-split one region per salt bucket (before the
 * dual writes start), then it and the history table backfilled from the legacy table's snapshot in
 * one read.
 */
final class DemoBackfill extends DemoPart {
  DemoBackfill(PrintStream out, Steps steps, Path runDir) {
    super(out, steps, runDir);
  }

  /**
   * The salted table, pre-split one region per salt bucket: it must exist before the dual writes
   * start.
   */
  void createRekeyed(Admin admin, KeyLayout v2) throws IOException {
    CreateTableResult created =
        TableCreator.table(DemoTables.TELEMETRY_V2)
            .families(List.of(FamilySpec.parse("d:bloom=row,encoding=fast_diff")))
            .splitPoints(SplitChoice.choose(v2, 16, "salt"))
            .create(admin);
    out.println("  " + created.summary() + " (salt splits)");
  }

  /** Both rekeyed tables backfilled from the snapshot, each verified, the salted one's spread. */
  void run(SparkSession spark, Configuration conf) throws Exception {
    steps.next(
        "Backfill %s (layout telemetry-v2: salt 16 | ts | deviceId) and %s (telemetry-by-device:"
            + " md5(deviceId)[0..2] | deviceId | reversed ts) from snapshot %s, one read for both",
        DemoTables.TELEMETRY_V2, DemoTables.TELEMETRY_BY_DEVICE, DemoTables.TELEMETRY_V1_SNAPSHOT);
    KeyLayout v1 = LayoutFiles.load("telemetry-v1", "demo");
    KeyLayout v2 = LayoutFiles.load("telemetry-v2", "demo");
    List<BackfillResult> all =
        new Backfill(
                spark,
                conf,
                BackfillOptions.builder()
                    .sourceSnapshot(DemoTables.TELEMETRY_V1_SNAPSHOT)
                    .sourceLayout(v1)
                    .target(DemoTables.TELEMETRY_V2.getNameAsString(), v2)
                    .target(
                        DemoTables.TELEMETRY_BY_DEVICE.getNameAsString(), DemoHistoryTable.layout())
                    // each target in its own subdir: <staging>/backfill-<table>
                    .staging(runDir.resolve("staging").toUri().toString())
                    .build())
            .executeAll(s -> {})
            .targets();
    for (BackfillResult t : all) {
      if (t.notVerified().isPresent()) {
        throw new RekeyException(t.notVerified().get(), t.exitCode(), null);
      }
    }
    BackfillResult history = all.get(1);
    out.printf(
        "  %s: %s; %d HFiles (sorted by device, newest first), verified%n",
        DemoTables.TELEMETRY_BY_DEVICE, history.accounting().line(), history.filesWritten());
    BackfillResult r = all.get(0);
    out.println("  rows per region (the legacy table had them all in one region):");
    for (RegionEntry e : r.regions()) {
      out.printf(
          "    region %2d  start %-4s %,10d rows  %s%n",
          e.index(),
          e.startHex().isEmpty() ? "-" : e.startHex(),
          e.rows(),
          bar(e.rows(), r.skew().maxRows()));
    }
    out.println("  " + r.skew().line());
    out.println("  " + r.accounting().line());
    out.printf(
        "  %d HFiles written in %.1f s, bulk-loaded in %.1f s, verified per region in %.1f s%n",
        r.filesWritten(), r.writeSeconds(), r.loadSeconds(), r.verifySeconds());
  }

  private static String bar(long n, long max) {
    return "#".repeat(max == 0 ? 0 : (int) Math.round(30.0 * n / max));
  }
}

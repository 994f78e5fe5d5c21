package dev.rekey.demo;

import dev.rekey.common.RekeyException;
import dev.rekey.jobs.compare.Difference;
import dev.rekey.jobs.reconcile.Reconcile;
import dev.rekey.jobs.reconcile.ReconcileOptions;
import dev.rekey.jobs.reconcile.ReconcileReport;
import dev.rekey.jobs.reconcile.ReconcileResult;
import dev.rekey.jobs.reconcile.Sample;
import dev.rekey.jobs.reconcile.SideSpec;
import dev.rekey.jobs.reconcile.TimeBucketDrill;
import dev.rekey.jobs.repair.Repair;
import dev.rekey.jobs.repair.RepairOptions;
import dev.rekey.jobs.repair.RepairReport;
import dev.rekey.jobs.repair.RepairResult;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.spark.sql.SparkSession;

/**
 * The demo's reconcile step: telemetry_v1 vs telemetry_v2 per hour (green), then a few rows deleted
 * from v2 and caught (exit 3, the missing natural keys printed), then restored with their original
 * cells and timestamps by {@code rekey repair} from reconcile's report (green).
 *
 * <p>The delete markers are the instructive part: a Delete leaves markers that hide every Put with
 * the same (or an older) timestamp until a major compaction removes them — re-putting the cells
 * straight away would "succeed" and stay invisible. repair finds them with a raw scan first and,
 * with --compact-if-masked, major-compacts their regions and waits until they are gone.
 */
public record DemoReconcile(PrintStream out, Path reportDir) {
  /** Rows deleted from v2 to show reconcile catching them. */
  public static final int FAULTS = 3;

  /**
   * What the step saw: the reconciles' and the repair's exit codes, the natural keys reported
   * missing.
   */
  public record Outcome(
      int before,
      int afterDelete,
      int repair,
      int afterRepair,
      List<String> deletedRowKeys,
      List<Map<String, String>> reportedMissing) {}

  /**
   * Runs the step over the readings of {@code gen}, one bucket per hour over [from, to). Returns
   * null (and says why) when the new table is not there.
   */
  public Outcome run(
      SparkSession spark,
      Configuration conf,
      Connection conn,
      TableName v1,
      TableName v2,
      KeyLayout v1Layout,
      KeyLayout v2Layout,
      TelemetryGenerator gen,
      long from,
      long to)
      throws IOException {
    try (Admin admin = conn.getAdmin()) {
      if (!admin.tableExists(v2)) {
        out.println("  skipped: " + v2 + " does not exist (the backfill step creates it)");
        return null;
      }
    }
    ReconcileOptions.Builder opts =
        ReconcileOptions.builder()
            .old(SideSpec.table("old", v1.getNameAsString(), v1Layout))
            .neu(SideSpec.table("new", v2.getNameAsString(), v2Layout))
            .from(from)
            .to(to)
            .bucket("1h")
            .samples(10);

    out.printf(
        "  rekey reconcile --old-table %s --old-layout %s --new-table %s --new-layout %s --bucket 1h"
            + " --digest%n",
        v1, v1Layout.name(), v2, v2Layout.name());
    ReconcileResult green =
        run(spark, conf, opts.digest(true).out(local(reportDir.resolve("1-before"))).build(), true);
    if (!green.matches()) {
      throw RekeyException.cannot(
          "Demo: %s and %s do not reconcile before any fault was planted (report %s); the"
              + " backfill step lost or changed rows",
          v1, v2, reportDir.resolve("1-before"));
    }

    // plant the fault: delete FAULTS consecutive readings from a third of the way into the day
    List<byte[]> keys = new ArrayList<>();
    for (long i = gen.rows() / 3; i < gen.rows() / 3 + FAULTS && i < gen.rows(); i++) {
      TelemetryReading r = gen.reading(i);
      keys.add(v2Layout.encode(Map.of("ts", r.ts(), "deviceId", r.deviceId())));
    }
    List<String> deleted = new ArrayList<>();
    try (Table t = conn.getTable(v2)) {
      for (byte[] k : keys) {
        Result r = t.get(new Get(k));
        if (r.isEmpty()) {
          throw new RekeyException(
              "Demo: row 0x" + Hex.of(k) + " is not in " + v2 + "; cannot plant the fault");
        }
        deleted.add(Hex.of(k));
        t.delete(new Delete(k));
      }
    }
    out.println(
        "  deleted " + keys.size() + " rows from " + v2 + ": " + String.join(", ", deleted));
    ReconcileResult caught =
        run(
            spark,
            conf,
            opts.digest(false).out(local(reportDir.resolve("2-after-delete"))).build(),
            true);
    List<Map<String, String>> missing = new ArrayList<>();
    for (TimeBucketDrill d : caught.drills().values()) {
      for (Sample s : d.samples()) {
        if (s.kind() == Difference.MISSING_IN_NEW) {
          missing.add(s.key());
        }
      }
    }
    out.printf(
        "  reconcile exit code %d: %d natural keys missing in %s, as planted%n",
        caught.exitCode(), missing.size(), v2);

    Path caughtDir = reportDir.resolve("2-after-delete");
    out.printf(
        "  rekey repair --old-table %s --via-snapshot --old-layout %s --new-table %s --new-layout %s"
            + " --from-reconcile %s --compact-if-masked%n",
        v1, v1Layout.name(), v2, v2Layout.name(), caughtDir.resolve(ReconcileReport.JSON));
    RepairResult repaired =
        new Repair(
                spark,
                conf,
                RepairOptions.builder()
                    .old(SideSpec.table("old", v1.getNameAsString(), v1Layout))
                    .viaSnapshot(true)
                    .neu(SideSpec.table("new", v2.getNameAsString(), v2Layout))
                    .fromReconcile(caughtDir.resolve(ReconcileReport.JSON))
                    .compactIfMasked(true)
                    .build())
            .execute();
    for (String line : repaired.console().split("\n")) {
      out.println("  " + line);
    }
    out.println("  report: " + caughtDir.resolve(RepairReport.HTML));
    out.printf(
        "  repair exit code %d: the %d rows put back with their original cells and timestamps%n",
        repaired.exitCode(), keys.size());
    ReconcileResult again =
        run(
            spark,
            conf,
            opts.digest(true).out(local(reportDir.resolve("3-after-repair"))).build(),
            false);
    out.printf(
        "  reconcile after the repair: exit code %d (%s)%n",
        again.exitCode(),
        again.matches()
            ? "all buckets match, digests equal"
            : again.mismatchedBuckets() + " buckets still differ");
    if (!again.matches()) {
      throw RekeyException.cannot(
          "Demo: the repaired rows of %s do not reconcile (report %s)",
          v2, reportDir.resolve("3-after-repair"));
    }
    return new Outcome(
        green.exitCode(),
        caught.exitCode(),
        repaired.exitCode(),
        again.exitCode(),
        deleted,
        missing);
  }

  private ReconcileResult run(
      SparkSession spark, Configuration conf, ReconcileOptions o, boolean print)
      throws IOException {
    ReconcileResult r = new Reconcile(spark, conf, o).execute();
    if (print) {
      out.print(r.console());
    }
    out.println("  report: " + Path.of(java.net.URI.create(o.out())).resolve(ReconcileReport.HTML));
    return r;
  }

  /** A local report dir as a file:// URI: the demo's reports stay on this host, as before. */
  private static String local(Path dir) {
    return dir.toAbsolutePath().toUri().toString();
  }
}

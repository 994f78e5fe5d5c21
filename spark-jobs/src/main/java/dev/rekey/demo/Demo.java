package dev.rekey.demo;

import dev.rekey.embedded.EmbeddedHBase;
import dev.rekey.jobs.common.HBaseConfigs;
import dev.rekey.jobs.backfill.Backfill;
import dev.rekey.jobs.backfill.BackfillOptions;
import dev.rekey.jobs.backfill.BackfillResult;
import dev.rekey.jobs.backfill.RegionEntry;
import dev.rekey.jobs.common.LayoutFiles;
import dev.rekey.jobs.createtable.CreateTableResult;
import dev.rekey.jobs.createtable.FamilySpec;
import dev.rekey.jobs.createtable.SplitChoice;
import dev.rekey.jobs.createtable.TableCreator;
import dev.rekey.rowkey.KeyLayout;
import java.io.PrintStream;
import java.util.List;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.spark.sql.SparkSession;

/**
 * The migration story on the embedded HBase, step by step: the legacy hotspot table, its snapshot, and (as the
 * jobs land) the rekeyed table, backfill, reports and reconciliation.
 */
public final class Demo {
  private final DemoOptions options;
  private final PrintStream out;

  public Demo(DemoOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  public DemoResult run(SparkSession spark) throws Exception {
    long t0 = System.nanoTime();
    EmbeddedHBase hbase = new EmbeddedHBase(options.runDir(), out::println);
    step("1. Embedded HBase");
    hbase.start(Duration.ofSeconds(180));
    Configuration conf = HBaseConfigs.load(hbase.clientSite());
    DemoResult.Builder result = DemoResult.builder();
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      DemoTables.dropAll(admin, out::println);

      step("2. Legacy table " + DemoTables.TELEMETRY_V1 + " (key ts | deviceId: every write goes to the last region)");
      LegacyTelemetryTable.create(admin, DemoTables.TELEMETRY_V1);
      TelemetryGenerator gen = TelemetryGenerator.oneDay(options.rows(), options.devices());
      long w0 = System.nanoTime();
      long written = LegacyTelemetryTable.write(conn, DemoTables.TELEMETRY_V1, gen, out::println);
      double writeSeconds = (System.nanoTime() - w0) / 1e9;
      admin.flush(DemoTables.TELEMETRY_V1);
      int regions = admin.getRegions(DemoTables.TELEMETRY_V1).size();
      out.printf("  %,d readings from %,d devices written in %.1f s (%,.0f rows/s, WAL on); %d region%n",
          written, options.devices(), writeSeconds, written / writeSeconds, regions);
      result.legacyRows(written).legacyRegions(regions).writeSeconds(writeSeconds);

      step("3. Snapshot " + DemoTables.TELEMETRY_V1_SNAPSHOT + " (the backfill reads its files, not the RegionServer)");
      admin.snapshot(DemoTables.TELEMETRY_V1_SNAPSHOT, DemoTables.TELEMETRY_V1);
      out.println("  snapshot " + DemoTables.TELEMETRY_V1_SNAPSHOT + " taken");
      result.snapshot(DemoTables.TELEMETRY_V1_SNAPSHOT);

      backfillStep(spark, conf, admin);
    }

    double total = (System.nanoTime() - t0) / 1e9;
    result.totalSeconds(total);
    step(String.format("Done in %.1f s", total));
    if (options.stop()) {
      hbase.stop(Duration.ofSeconds(120));
    } else {
      out.println("HBase is still running (client config " + hbase.clientSite() + "). Stop it with: bin/rekey hbase stop");
    }
    return result.build();
  }

  /** Step 4: the salted table, pre-split one region per salt bucket, backfilled from the snapshot. */
  private void backfillStep(SparkSession spark, Configuration conf, Admin admin) throws Exception {
    step("4. Backfill " + DemoTables.TELEMETRY_V2 + " (layout telemetry-v2: salt 16 | ts | deviceId) from snapshot "
        + DemoTables.TELEMETRY_V1_SNAPSHOT);
    KeyLayout v1 = LayoutFiles.load("telemetry-v1", "demo");
    KeyLayout v2 = LayoutFiles.load("telemetry-v2", "demo");
    CreateTableResult created = TableCreator.table(DemoTables.TELEMETRY_V2)
        .families(List.of(FamilySpec.parse("d:bloom=row,encoding=fast_diff")))
        .splitPoints(SplitChoice.choose(v2, 16, "salt"))
        .create(admin);
    out.println("  " + created.summary() + " (salt splits)");
    BackfillResult r = Backfill.on(spark, conf)
        .options(BackfillOptions.builder()
            .sourceSnapshot(DemoTables.TELEMETRY_V1_SNAPSHOT).sourceLayout(v1)
            .targetTable(DemoTables.TELEMETRY_V2.getNameAsString()).targetLayout(v2)
            .staging(options.runDir().resolve("staging").resolve("backfill-telemetry_v2").toUri().toString())
            .build())
        .execute();
    out.println("  rows per region (the legacy table had them all in one region):");
    for (RegionEntry e : r.regions()) {
      out.printf("    region %2d  start %-4s %,10d rows  %s%n", e.index(), e.startHex().isEmpty() ? "-" : e.startHex(),
          e.rows(), bar(e.rows(), r.skew().maxRows()));
    }
    out.println("  " + r.skew().line());
    out.println("  " + r.accounting().line());
    out.printf("  %d HFiles written in %.1f s, bulk-loaded in %.1f s, verified per region in %.1f s%n", r.filesWritten(),
        r.writeSeconds(), r.loadSeconds(), r.verifySeconds());
  }

  private static String bar(long n, long max) {
    return "#".repeat(max == 0 ? 0 : (int) Math.round(30.0 * n / max));
  }

  private void step(String title) {
    out.println();
    out.println("== " + title);
  }
}

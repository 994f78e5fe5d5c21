package dev.rekey.demo;

import dev.rekey.embedded.EmbeddedHBase;
import dev.rekey.jobs.common.HBaseConfigs;
import java.io.PrintStream;
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

      reconcileStep(spark, conf, conn, gen);
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

  /**
   * Reconcile telemetry_v1 vs telemetry_v2 per hour (green), delete a few rows from v2 and catch them (exit 3), restore
   * them (green). Runs after the backfill step, which creates telemetry_v2; skipped without it.
   */
  private void reconcileStep(SparkSession spark, Configuration conf, Connection conn, TelemetryGenerator gen)
      throws java.io.IOException {
    step("5. Reconcile " + DemoTables.TELEMETRY_V1 + " vs " + DemoTables.TELEMETRY_V2
        + " per hour, by natural key across the key change");
    java.nio.file.Path layouts = java.nio.file.Path.of(System.getProperty("rekey.home", ".")).resolve("conf/layouts");
    new DemoReconcile(out, options.runDir().toAbsolutePath().resolveSibling("reports").resolve("reconcile"))
        .run(spark, conf, conn, DemoTables.TELEMETRY_V1, DemoTables.TELEMETRY_V2,
            dev.rekey.rowkey.KeyLayout.load(layouts.resolve("telemetry-v1.yaml")),
            dev.rekey.rowkey.KeyLayout.load(layouts.resolve("telemetry-v2.yaml")),
            gen, TelemetryGenerator.DEFAULT_START, TelemetryGenerator.DEFAULT_START + 24L * 3600 * 1000);
  }

  private void step(String title) {
    out.println();
    out.println("== " + title);
  }
}

package dev.rekey.demo;

import dev.rekey.embedded.EmbeddedHBase;
import dev.rekey.jobs.analyze.Analyze;
import dev.rekey.jobs.analyze.AnalyzeReport;
import dev.rekey.jobs.analyze.AnalyzeResult;
import dev.rekey.jobs.common.HBaseConfigs;
import dev.rekey.jobs.common.LayoutFiles;
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
  /** The cluster the demo plans for: seed 002's 12 RegionServers (N = 16 buckets, as telemetry-v2 has). */
  static final int DEMO_PLANNED_SERVERS = 12;
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
    }

    analyzeLegacy(spark, conf);
    analyzeRekeyedIfPresent(spark, conf);

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
   * Analyze on the legacy table (issue 7): read from its snapshot (files, no RegionServer load), region counters from
   * the live table, advice sized for the seed's 12-RegionServer cluster, and the salted layout simulated on the sample.
   */
  void analyzeLegacy(SparkSession spark, Configuration conf) {
    step("4. Analyze " + DemoTables.TELEMETRY_V1 + " (the hotspot in numbers, and what to do about it)");
    AnalyzeResult r = Analyze.snapshot(DemoTables.TELEMETRY_V1_SNAPSHOT)
        .layout(LayoutFiles.load("telemetry-v1", "demo"))
        .servers(DEMO_PLANNED_SERVERS)
        .simulate(LayoutFiles.load("telemetry-v2", "demo"), "natural")
        .execute(spark, conf);
    printAnalysis(r, "analyze-" + DemoTables.TELEMETRY_V1);
  }

  /** Analyze on the rekeyed table, if the backfill has written it by now: the same figures, spread across regions. */
  void analyzeRekeyedIfPresent(SparkSession spark, Configuration conf) throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      if (!admin.tableExists(DemoTables.TELEMETRY_V2)) {
        return;
      }
    }
    step("Analyze " + DemoTables.TELEMETRY_V2 + " (after the backfill: spread across its salt buckets)");
    AnalyzeResult r = Analyze.table(DemoTables.TELEMETRY_V2)
        .layout(LayoutFiles.load("telemetry-v2", "demo"))
        .servers(DEMO_PLANNED_SERVERS)
        .execute(spark, conf);
    printAnalysis(r, "analyze-" + DemoTables.TELEMETRY_V2);
  }

  private void printAnalysis(AnalyzeResult r, String dirName) {
    for (String line : AnalyzeReport.console(r).split("\n")) {
      out.println("  " + line);
    }
    var files = AnalyzeReport.write(r, options.runDir().resolveSibling(dirName));
    out.println("  report: " + files.get(1));
  }

  private void step(String title) {
    out.println();
    out.println("== " + title);
  }
}

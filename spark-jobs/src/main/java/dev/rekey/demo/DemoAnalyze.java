package dev.rekey.demo;

import dev.rekey.common.LayoutFiles;
import dev.rekey.jobs.analyze.Analyze;
import dev.rekey.jobs.analyze.AnalyzeOptions;
import dev.rekey.jobs.analyze.AnalyzeReport;
import dev.rekey.jobs.analyze.AnalyzeResult;
import dev.rekey.read.Source;
import java.io.PrintStream;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.spark.sql.SparkSession;

/**
 * The demo's analyze steps: the legacy table's hotspot before the backfill, the rekeyed table's
 * spread after it; advice sized for the cluster the demo plans for.
 */
final class DemoAnalyze extends DemoPart {
  /** The cluster the demo plans for: 12 RegionServers (N = 16 buckets, as telemetry-v2 has). */
  static final int DEMO_PLANNED_SERVERS = 12;

  DemoAnalyze(PrintStream out, Steps steps, Path runDir) {
    super(out, steps, runDir);
  }

  /**
   * Analyze on the legacy table: read from its snapshot (files, no RegionServer load), region
   * counters from the live table, advice sized for a 12-RegionServer cluster, and the salted layout
   * simulated on the sample.
   */
  void legacy(SparkSession spark, Configuration conf) {
    steps.next(
        "Analyze %s (the hotspot in numbers, and what to do about it)", DemoTables.TELEMETRY_V1);
    analyze(
        spark,
        conf,
        AnalyzeOptions.builder()
            .source(Source.snapshot(DemoTables.TELEMETRY_V1_SNAPSHOT))
            .layout(LayoutFiles.load("telemetry-v1", "demo"))
            .simulate(LayoutFiles.load("telemetry-v2", "demo"), "natural"),
        "analyze-" + DemoTables.TELEMETRY_V1);
  }

  /**
   * Analyze on the rekeyed table, if the backfill has written it by now: the same figures, spread
   * across regions.
   */
  void rekeyedIfPresent(SparkSession spark, Configuration conf) throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(conf);
        Admin admin = conn.getAdmin()) {
      if (!admin.tableExists(DemoTables.TELEMETRY_V2)) {
        return;
      }
    }
    steps.next(
        "Analyze %s (after the backfill: spread across its salt buckets)", DemoTables.TELEMETRY_V2);
    analyze(
        spark,
        conf,
        AnalyzeOptions.builder()
            .source(Source.table(DemoTables.TELEMETRY_V2.getNameAsString()))
            .layout(LayoutFiles.load("telemetry-v2", "demo")),
        "analyze-" + DemoTables.TELEMETRY_V2);
  }

  /** Analyzes with the demo's planned servers, prints the result and where its report went. */
  private void analyze(
      SparkSession spark, Configuration conf, AnalyzeOptions.Builder options, String dirName) {
    Path dir = runDir.resolveSibling(dirName);
    AnalyzeResult r =
        new Analyze(
                spark,
                conf,
                options
                    .servers(DEMO_PLANNED_SERVERS)
                    .out(dir.toAbsolutePath().toUri().toString())
                    .build())
            .execute();
    for (String line : AnalyzeReport.console(r).split("\n")) {
      out.println("  " + line);
    }
    out.println("  report: " + dir.resolve("analyze.html"));
  }
}

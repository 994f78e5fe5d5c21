package dev.rekey.demo;

import dev.rekey.common.LayoutFiles;
import dev.rekey.common.TimeWindow;
import dev.rekey.home.RekeyHome;
import dev.rekey.jobs.scan.ReportFile;
import dev.rekey.jobs.scan.ReportOutput;
import dev.rekey.jobs.scan.ScanJob;
import dev.rekey.jobs.scan.ScanOptions;
import dev.rekey.jobs.scan.ScanResult;
import dev.rekey.read.Source;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.spark.sql.SparkSession;

/**
 * The demo's last steps: the events table written a store file per day, then the nightly scan's SQL
 * reports over it and the telemetry table for the demo's day.
 */
final class DemoNightly extends DemoPart {
  DemoNightly(PrintStream out, Steps steps, Path runDir) {
    super(out, steps, runDir);
  }

  /** The events table (layout events-v2, a hash prefix), for the all-user report. */
  void eventsTable(Connection conn, Admin admin) throws IOException {
    KeyLayout layout = LayoutFiles.load("events-v2", "demo");
    steps.next(
        "Events table %s (hash prefix key: md5(userId)[0..2] | userId | reversed time), pre-split"
            + " into %d regions",
        DemoTables.EVENTS_V2, Demo.EVENT_REGIONS);
    EventsTable.createOneFilePerDay(admin, DemoTables.EVENTS_V2, layout, Demo.EVENT_REGIONS);
    EventGenerator gen = Demo.events();
    long n = 0;
    for (int day = 0; day < Demo.EVENT_DAYS; day++) {
      n +=
          EventsTable.write(
              conn, DemoTables.EVENTS_V2, layout, gen, day * Demo.EVENTS, (day + 1) * Demo.EVENTS);
      admin.flush(DemoTables.EVENTS_V2); // a store file per region per day
    }
    out.printf(
        "  %,d events from %,d users over %d days written (cell timestamp = event time)%n",
        n, gen.users(), Demo.EVENT_DAYS);
    out.println(
        "  flushed after each day, compactions off: one store file per region per day (a"
            + " date-tiered family keeps them split by time: create-table --family"
            + " e:compaction=date_tiered,window=P1D)");
  }

  /**
   * The nightly scan: the all-user report over events_v2 and the 5-minute device windows over
   * telemetry_v2 (or the legacy table when this demo has no telemetry_v2), for the demo's day.
   */
  void reports(SparkSession spark, Admin admin, Configuration conf) throws IOException {
    steps.next("Nightly reports: rekey scan, one Spark task per region, SQL reports from sql/");
    Path outRoot = runDir.toAbsolutePath().resolveSibling("scan-out");
    TimeWindow day = TimeWindow.ofDay(Demo.DEMO_DAY);
    ScanResult users =
        new ScanJob(
                spark,
                conf,
                ScanOptions.builder()
                    // through a snapshot: rekey's reader skips the store files of other days
                    .source(Source.tableViaSnapshot(DemoTables.EVENTS_V2.getNameAsString()))
                    .layout(LayoutFiles.load("events-v2", "demo"))
                    .window(day)
                    .report(ReportFile.load(RekeyHome.dir().resolve("sql/user_daily_activity.sql")))
                    .out(outRoot.resolve(DemoTables.EVENTS_V2.getNameAsString()))
                    .build())
            .execute(out::println);
    printScan(users);

    boolean v2 = admin.tableExists(DemoTables.TELEMETRY_V2);
    TableName telemetry = v2 ? DemoTables.TELEMETRY_V2 : DemoTables.TELEMETRY_V1;
    String layout = v2 ? "telemetry-v2" : "telemetry-v1";
    ScanResult devices =
        new ScanJob(
                spark,
                conf,
                ScanOptions.builder()
                    .source(Source.table(telemetry.getNameAsString()))
                    .layout(LayoutFiles.load(layout, "demo"))
                    .window(day)
                    .report(
                        ReportFile.load(RekeyHome.dir().resolve("sql/device_window_counts.sql")))
                    .out(outRoot.resolve(telemetry.getNameAsString()))
                    .build())
            .execute(out::println);
    printScan(devices);
  }

  private void printScan(ScanResult r) {
    out.printf(
        "  %s: %d regions, %d Spark tasks; %s; %.1f s%n",
        r.source(), r.regions(), r.partitions(), r.accounting(), r.millis() / 1000.0);
    if (r.storeFilesLine() != null) {
      out.println("  " + r.storeFilesLine());
    }
    for (ReportOutput rep : r.reports()) {
      out.printf("  report %s: %,d rows in %s%n", rep.name(), rep.rows(), rep.path());
    }
    out.println("  summary " + r.summaryJson());
    out.println("  open    " + r.reportHtml());
  }
}

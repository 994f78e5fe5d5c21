package dev.rekey.demo;

import dev.rekey.embedded.EmbeddedHBase;
import dev.rekey.embedded.RekeyHome;
import dev.rekey.jobs.analyze.Analyze;
import dev.rekey.jobs.analyze.AnalyzeOptions;
import dev.rekey.jobs.analyze.AnalyzeReport;
import dev.rekey.jobs.analyze.AnalyzeResult;
import dev.rekey.jobs.backfill.Backfill;
import dev.rekey.jobs.backfill.BackfillOptions;
import dev.rekey.jobs.backfill.BackfillResult;
import dev.rekey.jobs.backfill.RegionEntry;
import dev.rekey.jobs.common.HBaseConfigs;
import dev.rekey.jobs.common.LayoutFiles;
import dev.rekey.jobs.common.RekeyException;
import dev.rekey.jobs.common.TimeWindow;
import dev.rekey.jobs.createtable.CreateTableResult;
import dev.rekey.jobs.createtable.FamilySpec;
import dev.rekey.jobs.createtable.SplitChoice;
import dev.rekey.jobs.createtable.TableCreator;
import dev.rekey.jobs.read.Source;
import dev.rekey.jobs.scan.ReportFile;
import dev.rekey.jobs.scan.ReportOutput;
import dev.rekey.jobs.scan.ScanJob;
import dev.rekey.jobs.scan.ScanOptions;
import dev.rekey.jobs.scan.ScanResult;
import dev.rekey.rowkey.KeyLayout;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.spark.sql.SparkSession;

/**
 * The migration story on the embedded HBase, step by step: the legacy hotspot table, its snapshot,
 * and (as the jobs land) the rekeyed table, backfill, reports and reconciliation.
 */
public final class Demo {
  /** The demo's day (the generators' start): the nightly reports' window. */
  static final String DEMO_DAY = "2026-11-29";

  /** Events per day, over {@link #EVENT_DAYS} days ending with the demo's day. */
  static final int EVENTS = 3_000;

  static final int EVENT_DAYS = 30;
  static final int EVENT_USERS = 300;
  static final int EVENT_REGIONS = 4;

  /** The demo's events: 30 days of 3,000, the last one the nightly reports' day. */
  static EventGenerator events() {
    return EventGenerator.days(EVENTS, EVENT_USERS, EVENT_DAYS);
  }

  /** The cluster the demo plans for: 12 RegionServers (N = 16 buckets, as telemetry-v2 has). */
  static final int DEMO_PLANNED_SERVERS = 12;

  private final DemoOptions options;
  private int stepNo;
  private final PrintStream out;
  private final Function<EmbeddedHBase, Closeable> serverWatch;

  /**
   * @param serverWatch watches the server once it runs, until the story ends (closed before a
   *     {@code --stop} stops it)
   */
  public Demo(
      DemoOptions options, PrintStream out, Function<EmbeddedHBase, Closeable> serverWatch) {
    this.options = options;
    this.out = out;
    this.serverWatch = serverWatch;
  }

  public void run(SparkSession spark) throws Exception {
    long t0 = System.nanoTime();
    EmbeddedHBase hbase = new EmbeddedHBase(options.runDir(), out::println);
    // a second demo on this server would drop this one's tables and snapshots under it
    try (Closeable running = hbase.hold("demo", h -> anotherDemo(h, hbase.runDir()))) {
      step("Embedded HBase");
      hbase.start(Duration.ofSeconds(180));
      try (Closeable watch = serverWatch.apply(hbase)) {
        story(spark, hbase, t0);
      }
      if (options.stop()) {
        hbase.stop(Duration.ofSeconds(120));
      } else {
        out.println(
            "HBase is still running (client config "
                + hbase.clientSite()
                + "). Stop it with: bin/rekey hbase stop");
      }
    }
  }

  /** The refusal of a demo while another runs against the same server. */
  static RekeyException anotherDemo(EmbeddedHBase.Holder h, Path runDir) {
    return new RekeyException(
        String.format(
            "Cannot run the demo: another demo (pid %d, started at %s) is running against the"
                + " embedded HBase in %s; wait for it or stop it (kill %d)",
            h.pid(), h.started(), runDir, h.pid()));
  }

  /** The demo's steps on the running server. */
  private void story(SparkSession spark, EmbeddedHBase hbase, long t0) throws Exception {
    Configuration conf =
        HBaseConfigs.withSparkHadoop(
            HBaseConfigs.load(hbase.clientSite()), spark.sparkContext().getConf());
    try (Connection conn = ConnectionFactory.createConnection(conf);
        Admin admin = conn.getAdmin()) {
      DemoReplication replication = new DemoReplication(conn, out);
      replication.removeLeftover(); // before its tables go
      DemoTables.dropAll(admin, out::println);

      step(
          "Legacy table "
              + DemoTables.TELEMETRY_V1
              + " (key ts | deviceId: every write goes to the last region)");
      LegacyTelemetryTable.create(admin, DemoTables.TELEMETRY_V1);
      TelemetryGenerator gen = TelemetryGenerator.oneDay(options.rows(), options.devices());
      long w0 = System.nanoTime();
      long written = LegacyTelemetryTable.write(conn, DemoTables.TELEMETRY_V1, gen, out::println);
      double writeSeconds = (System.nanoTime() - w0) / 1e9;
      admin.flush(DemoTables.TELEMETRY_V1);
      int regions = admin.getRegions(DemoTables.TELEMETRY_V1).size();
      out.printf(
          "  %,d readings from %,d devices written in %.1f s (%,.0f rows/s, WAL on); %d region%n",
          written, options.devices(), writeSeconds, written / writeSeconds, regions);

      KeyLayout v1 = LayoutFiles.load("telemetry-v1", "demo");
      KeyLayout v2 = LayoutFiles.load("telemetry-v2", "demo");
      try (DemoDualWrites dual = startWriters(conn, admin, replication, gen, v1, v2)) {
        out.printf(
            "  %,d new readings written to %s before the snapshot%n",
            DemoDualWrites.FIRST_BATCH, dual.where());

        step(
            "Snapshot "
                + DemoTables.TELEMETRY_V1_SNAPSHOT
                + " (the backfill reads its files, not the RegionServer)");
        admin.snapshot(DemoTables.TELEMETRY_V1_SNAPSHOT, DemoTables.TELEMETRY_V1);
        out.println("  snapshot " + DemoTables.TELEMETRY_V1_SNAPSHOT + " taken");
        dual.keepWriting();

        analyzeLegacy(spark, conf);
        backfillStep(spark, conf, admin);
        dual.stop(); // before reconcile: it compares ranges writers no longer touch
        if (replicated()) {
          replication.awaitCaughtUp(conn, v2, dual.lastWritten());
        }
      }
      analyzeRekeyedIfPresent(spark, conf);
      reconcileStep(spark, conf, conn, gen);

      step(
          "Reads switched: SHADOW (serve "
              + DemoTables.TELEMETRY_V1
              + ", compare "
              + DemoTables.TELEMETRY_V2
              + "), then NEW");
      if (!new DemoReadSwitch(out).run(conn, v1, v2, gen)) {
        throw new dev.rekey.jobs.common.RekeyException(
            "Demo: the new table does not answer reads as the old one does "
                + "(see the mismatches above)");
      }
      if (replicated()) {
        step(
            "Replication stopped: the writers now write "
                + DemoTables.TELEMETRY_V2
                + " (their one change: the new key)");
        replication.stop();
      }
      eventsTable(conn, admin);
      nightlyReports(spark, admin, conf);
    }

    double total = (System.nanoTime() - t0) / 1e9;
    out.println();
    out.printf("== Done in %.1f s%n", total);
  }

  private boolean replicated() {
    return options.writers() == DemoOptions.Writers.replication;
  }

  /**
   * The migration's second step, before the snapshot: telemetry_v2 is created, then either the
   * writer writes both tables (dual writes) or replication starts and the writer keeps writing
   * telemetry_v1 only.
   */
  private DemoDualWrites startWriters(
      Connection conn,
      Admin admin,
      DemoReplication replication,
      TelemetryGenerator gen,
      KeyLayout v1,
      KeyLayout v2)
      throws IOException {
    if (!replicated()) {
      step(
          "Dual writes start: "
              + DemoTables.TELEMETRY_V2
              + " is created, writers write both keys (rekey-client)");
      createRekeyed(admin, v2);
      return DemoDualWrites.begin(conn, gen, v1, v2, out);
    }
    step(
        "Replication starts: "
            + DemoTables.TELEMETRY_V2
            + " is created, rekey replicate start; the writers keep writing "
            + DemoTables.TELEMETRY_V1
            + " only");
    createRekeyed(admin, v2);
    replication.start();
    return DemoDualWrites.beginOldTableOnly(conn, gen, out);
  }

  /**
   * Step 4: the salted table, pre-split one region per salt bucket, backfilled from the snapshot.
   */
  private void backfillStep(SparkSession spark, Configuration conf, Admin admin) throws Exception {
    step(
        "Backfill "
            + DemoTables.TELEMETRY_V2
            + " (layout telemetry-v2: salt 16 | ts | deviceId) from snapshot "
            + DemoTables.TELEMETRY_V1_SNAPSHOT);
    KeyLayout v1 = LayoutFiles.load("telemetry-v1", "demo");
    KeyLayout v2 = LayoutFiles.load("telemetry-v2", "demo");
    BackfillResult r =
        new Backfill(
                spark,
                conf,
                BackfillOptions.builder()
                    .sourceSnapshot(DemoTables.TELEMETRY_V1_SNAPSHOT)
                    .sourceLayout(v1)
                    .targetTable(DemoTables.TELEMETRY_V2.getNameAsString())
                    .targetLayout(v2)
                    .staging(
                        options
                            .runDir()
                            .resolve("staging")
                            .resolve("backfill-telemetry_v2")
                            .toUri()
                            .toString())
                    .build())
            .execute();
    if (r.notVerified().isPresent()) {
      throw new RekeyException(r.notVerified().get(), r.exitCode(), null);
    }
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

  /**
   * The salted table, pre-split one region per salt bucket: it must exist before the dual writes
   * start.
   */
  private void createRekeyed(Admin admin, KeyLayout v2) throws IOException {
    CreateTableResult created =
        TableCreator.table(DemoTables.TELEMETRY_V2)
            .families(List.of(FamilySpec.parse("d:bloom=row,encoding=fast_diff")))
            .splitPoints(SplitChoice.choose(v2, 16, "salt"))
            .create(admin);
    out.println("  " + created.summary() + " (salt splits)");
  }

  private static String bar(long n, long max) {
    return "#".repeat(max == 0 ? 0 : (int) Math.round(30.0 * n / max));
  }

  /** The events table (layout events-v2, a hash prefix), for the all-user report. */
  private void eventsTable(Connection conn, Admin admin) throws IOException {
    KeyLayout layout = LayoutFiles.load("events-v2", "demo");
    step(
        "Events table "
            + DemoTables.EVENTS_V2
            + " (hash prefix key: md5(userId)[0..2] | userId | reversed time), "
            + "pre-split into "
            + EVENT_REGIONS
            + " regions");
    EventsTable.createOneFilePerDay(admin, DemoTables.EVENTS_V2, layout, EVENT_REGIONS);
    EventGenerator gen = events();
    long n = 0;
    for (int day = 0; day < EVENT_DAYS; day++) {
      n +=
          EventsTable.write(
              conn, DemoTables.EVENTS_V2, layout, gen, day * EVENTS, (day + 1) * EVENTS);
      admin.flush(DemoTables.EVENTS_V2); // a store file per region per day
    }
    out.printf(
        "  %,d events from %,d users over %d days written (cell timestamp = event time)%n",
        n, gen.users(), EVENT_DAYS);
    out.println(
        "  flushed after each day, compactions off: one store file per region per day (a"
            + " date-tiered family keeps them split by time: create-table --family"
            + " e:compaction=date_tiered,window=P1D)");
  }

  /**
   * The nightly scan: the all-user report over events_v2 and the 5-minute device windows over
   * telemetry_v2 (or the legacy table when this demo has no telemetry_v2), for the demo's day.
   */
  private void nightlyReports(SparkSession spark, Admin admin, Configuration conf)
      throws IOException {
    step("Nightly reports: rekey scan, one Spark task per region, SQL reports from sql/");
    Path outRoot = options.runDir().toAbsolutePath().resolveSibling("scan-out");
    TimeWindow day = TimeWindow.ofDay(DEMO_DAY);
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

  /**
   * Analyze on the legacy table: read from its snapshot (files, no RegionServer load), region
   * counters from the live table, advice sized for a 12-RegionServer cluster, and the salted layout
   * simulated on the sample.
   */
  void analyzeLegacy(SparkSession spark, Configuration conf) {
    step(
        "Analyze "
            + DemoTables.TELEMETRY_V1
            + " (the hotspot in numbers, and what to do about it)");
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
  void analyzeRekeyedIfPresent(SparkSession spark, Configuration conf) throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(conf);
        Admin admin = conn.getAdmin()) {
      if (!admin.tableExists(DemoTables.TELEMETRY_V2)) {
        return;
      }
    }
    step(
        "Analyze "
            + DemoTables.TELEMETRY_V2
            + " (after the backfill: spread across its salt buckets)");
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
    Path dir = this.options.runDir().resolveSibling(dirName);
    AnalyzeResult r =
        new Analyze(spark, conf, options.servers(DEMO_PLANNED_SERVERS).out(dir).build()).execute();
    for (String line : AnalyzeReport.console(r).split("\n")) {
      out.println("  " + line);
    }
    out.println("  report: " + dir.resolve("analyze.html"));
  }

  /**
   * Reconcile telemetry_v1 vs telemetry_v2 per hour (green), delete a few rows from v2 and catch
   * them (exit 3), restore them (green). Runs after the backfill step, which creates telemetry_v2;
   * skipped without it.
   */
  private void reconcileStep(
      SparkSession spark, Configuration conf, Connection conn, TelemetryGenerator gen)
      throws java.io.IOException {
    step(
        "Reconcile "
            + DemoTables.TELEMETRY_V1
            + " vs "
            + DemoTables.TELEMETRY_V2
            + " per hour, by natural key across the key change");
    java.nio.file.Path layouts = RekeyHome.resolve("conf/layouts");
    new DemoReconcile(
            out, options.runDir().toAbsolutePath().resolveSibling("reports").resolve("reconcile"))
        .run(
            spark,
            conf,
            conn,
            DemoTables.TELEMETRY_V1,
            DemoTables.TELEMETRY_V2,
            dev.rekey.rowkey.KeyLayout.load(layouts.resolve("telemetry-v1.yaml")),
            dev.rekey.rowkey.KeyLayout.load(layouts.resolve("telemetry-v2.yaml")),
            gen,
            TelemetryGenerator.DEFAULT_START,
            TelemetryGenerator.DEFAULT_START + 24L * 3600 * 1000);
  }

  private void step(String title) {
    out.println();
    out.println("== " + (++stepNo) + ". " + title);
  }
}

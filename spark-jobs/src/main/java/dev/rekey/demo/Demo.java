package dev.rekey.demo;

import dev.rekey.client.DualWriter;
import dev.rekey.common.HBaseConfigs;
import dev.rekey.common.LayoutFiles;
import dev.rekey.common.RekeyException;
import dev.rekey.embedded.EmbeddedHBase;
import dev.rekey.rowkey.KeyLayout;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
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

  private final DemoOptions options;
  private final PrintStream out;
  private final Steps steps;
  private final Function<EmbeddedHBase, Closeable> serverWatch;

  /**
   * @param serverWatch watches the server once it runs, until the story ends (closed before a
   *     {@code --stop} stops it)
   */
  public Demo(
      DemoOptions options, PrintStream out, Function<EmbeddedHBase, Closeable> serverWatch) {
    this.options = options;
    this.out = out;
    this.steps = new Steps(out);
    this.serverWatch = serverWatch;
  }

  public void run(SparkSession spark) throws Exception {
    long t0 = System.nanoTime();
    EmbeddedHBase hbase = new EmbeddedHBase(options.runDir(), out::println);
    // a second demo on this server would drop this one's tables and snapshots under it
    try (Closeable running = hbase.hold("demo", h -> anotherDemo(h, hbase.runDir()))) {
      steps.next("Embedded HBase");
      hbase.start(Duration.ofSeconds(180));
      try (Closeable watch = serverWatch.apply(hbase)) {
        story(spark, hbase, t0);
      }
      if (options.stop()) {
        hbase.stop(Duration.ofSeconds(120));
      } else {
        out.printf(
            "HBase is still running (client config %s). Stop it with: bin/rekey hbase stop%n",
            hbase.clientSite());
      }
    }
  }

  /** The refusal of a demo while another runs against the same server. */
  static RekeyException anotherDemo(EmbeddedHBase.Holder h, Path runDir) {
    return RekeyException.refused(
        "Cannot run the demo: another demo (pid %d, started at %s) is running against the"
            + " embedded HBase in %s; wait for it or stop it (kill %d)",
        h.pid(), h.started(), runDir, h.pid());
  }

  /** The demo's steps on the running server. */
  private void story(SparkSession spark, EmbeddedHBase hbase, long t0) throws Exception {
    Configuration conf =
        HBaseConfigs.withSparkHadoop(
            HBaseConfigs.load(hbase.clientSite()), spark.sparkContext().getConf());
    Path runDir = options.runDir();
    DemoAnalyze analyze = new DemoAnalyze(out, steps, runDir);
    DemoBackfill backfill = new DemoBackfill(out, steps, runDir);
    DemoNightly nightly = new DemoNightly(out, steps, runDir);
    try (Connection conn = ConnectionFactory.createConnection(conf);
        Admin admin = conn.getAdmin()) {
      DemoTables.dropAll(admin, out::println);

      TelemetryGenerator gen = legacyTable(conn, admin);

      KeyLayout v1 = LayoutFiles.load("telemetry-v1", "demo");
      KeyLayout v2 = LayoutFiles.load("telemetry-v2", "demo");
      KeyLayout byDevice = DemoHistoryTable.layout();
      DemoHistoryTable history = new DemoHistoryTable(out);
      boolean replicated = options.writers() == DemoOptions.Writers.REPLICATION;
      steps.next(
          "%s %s (window queries) and %s (device histories) are created, %s",
          replicated ? "Replication starts:" : "Dual writes start:",
          DemoTables.TELEMETRY_V2,
          DemoTables.TELEMETRY_BY_DEVICE,
          replicated
              ? String.format(
                  "the writer keeps writing %s alone and a rekeying replication peer brings its"
                      + " edits to both",
                  DemoTables.TELEMETRY_V1)
              : "writers write all three keys (rekey-client)");
      backfill.createRekeyed(admin, v2);
      history.create(admin, byDevice);
      try (DemoReplication replication = replicated ? DemoReplication.start(conn, out) : null;
          DemoDualWrites dual =
              replicated
                  ? DemoDualWrites.beginOldTableOnly(conn, gen, v1, out)
                  : DemoDualWrites.begin(
                      DualWriter.builder(conn)
                          .oldTable(DemoTables.TELEMETRY_V1, v1)
                          .newTable(DemoTables.TELEMETRY_V2, v2)
                          .newTable(DemoTables.TELEMETRY_BY_DEVICE, byDevice)
                          .build(),
                      gen,
                      out)) {
        out.printf(
            "  %,d new readings written to %s before the snapshot%n",
            DemoDualWrites.FIRST_BATCH, dual.tables());

        steps.next(
            "Snapshot %s (the backfill reads its files, not the RegionServer)",
            DemoTables.TELEMETRY_V1_SNAPSHOT);
        admin.snapshot(DemoTables.TELEMETRY_V1_SNAPSHOT, DemoTables.TELEMETRY_V1);
        out.println("  snapshot " + DemoTables.TELEMETRY_V1_SNAPSHOT + " taken");
        dual.keepWriting();

        analyze.legacy(spark, conf);
        backfill.run(spark, conf);
        dual.stop(); // before reconcile: it compares ranges writers no longer touch
        if (replication != null) {
          replication.awaitArrival(conn, dual.writeLast(), v2, byDevice);
        }
      }
      analyze.rekeyedIfPresent(spark, conf);
      reconcileStep(spark, conf, conn, gen, v1, v2);
      steps.next(
          "Reconcile %s vs %s (the history table, backfilled in the same run)",
          DemoTables.TELEMETRY_V1, DemoTables.TELEMETRY_BY_DEVICE);
      history.reconcile(
          spark,
          conf,
          v1,
          byDevice,
          runDir.toAbsolutePath().resolveSibling("reports").resolve("reconcile-history"));

      readsAndHistory(conn, gen, v1, v2, byDevice, history);
      nightly.eventsTable(conn, admin);
      nightly.reports(spark, admin, conf);
    }

    double total = (System.nanoTime() - t0) / 1e9;
    out.println();
    out.printf("== Done in %.1f s%n", total);
  }

  /** The legacy table, written through its one RegionServer region: the readings' generator. */
  private TelemetryGenerator legacyTable(Connection conn, Admin admin) throws IOException {
    steps.next(
        "Legacy table %s (key ts | deviceId: every write goes to the last region)",
        DemoTables.TELEMETRY_V1);
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
    return gen;
  }

  /** The read switch (SHADOW, then NEW) and one device's history from both new tables. */
  private void readsAndHistory(
      Connection conn,
      TelemetryGenerator gen,
      KeyLayout v1,
      KeyLayout v2,
      KeyLayout byDevice,
      DemoHistoryTable history)
      throws IOException {
    steps.next(
        "Reads switched: SHADOW (serve %s, compare %s), then NEW",
        DemoTables.TELEMETRY_V1, DemoTables.TELEMETRY_V2);
    if (!new DemoReadSwitch(out).run(conn, v1, v2, gen)) {
      throw new RekeyException(
          "Demo: the new table does not answer reads as the old one does "
              + "(see the mismatches above)");
    }
    steps.next(
        "History of one device: %s (one range scan) vs %s (16 salt buckets merged)",
        DemoTables.TELEMETRY_BY_DEVICE, DemoTables.TELEMETRY_V2);
    history.historyOfDevice(conn, v2, byDevice, TelemetryGenerator.deviceId(7));
  }

  /**
   * Reconcile telemetry_v1 vs telemetry_v2 per hour (green), delete a few rows from v2 and catch
   * them (exit 3), restore them (green). Runs after the backfill step, which creates telemetry_v2.
   */
  private void reconcileStep(
      SparkSession spark,
      Configuration conf,
      Connection conn,
      TelemetryGenerator gen,
      KeyLayout v1,
      KeyLayout v2)
      throws IOException {
    steps.next(
        "Reconcile %s vs %s per hour, by natural key across the key change",
        DemoTables.TELEMETRY_V1, DemoTables.TELEMETRY_V2);
    new DemoReconcile(
            out, options.runDir().toAbsolutePath().resolveSibling("reports").resolve("reconcile"))
        .run(
            spark,
            conf,
            conn,
            DemoTables.TELEMETRY_V1,
            DemoTables.TELEMETRY_V2,
            v1,
            v2,
            gen,
            TelemetryGenerator.DEFAULT_START,
            TelemetryGenerator.DEFAULT_START + 24L * 3600 * 1000);
  }
}

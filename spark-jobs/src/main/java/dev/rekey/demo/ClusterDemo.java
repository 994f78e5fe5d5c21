package dev.rekey.demo;

import dev.rekey.admin.createtable.CreateTableResult;
import dev.rekey.admin.createtable.FamilySpec;
import dev.rekey.admin.createtable.SplitChoice;
import dev.rekey.admin.createtable.TableCreator;
import dev.rekey.common.HBaseConfigs;
import dev.rekey.common.LayoutFiles;
import dev.rekey.common.RekeyException;
import dev.rekey.embedded.ClusterStack;
import dev.rekey.home.RekeyHome;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The migration story on the pseudo-distributed cluster ({@code rekey demo --cluster}), every job
 * through the cluster's spark-submit as a user would run it: the legacy table written to HBase on
 * HDFS, the salted table's regions spread over both RegionServers, the backfill in cluster deploy
 * mode on the Spark standalone master (HFiles staged on HDFS, so the bulk load is a rename) into
 * the salted table and the device-history table from one read, analyze, reconcile of both, the
 * nightly scans on YARN (telemetry_v2's day, and an entity-first events table's day through a
 * snapshot that skips the other days' store files), a repair of damage planted in both, one
 * device's history read from each table, and a client's comparison of the old table with each new
 * one.
 */
public final class ClusterDemo extends ClusterStory {
  /** Readings damaged in each new table before the repair. */
  private static final int DAMAGED_ROWS = 3;

  private final ClusterStack cluster;

  public ClusterDemo(ClusterStack cluster, long rows, int devices, Path jar, PrintStream out) {
    super(rows, devices, jar, out);
    this.cluster = cluster;
  }

  /**
   * @return 0 when every job succeeded and reconcile was green
   */
  @Override
  public int run() throws Exception {
    requireRunning(cluster, "the demo on the cluster");
    long t0 = System.nanoTime();
    Path site = cluster.clientSite();
    Path work = cluster.dir().resolve("demo");
    Configuration conf = HBaseConfigs.load(site);
    String sparkMaster = cluster.sparkMasterUrl().orElseThrow();
    String fs = cluster.defaultFs().orElseThrow();
    // the reports' parts are written by executors on any host: on the cluster's filesystem
    String nightlyOut = fs + "/rekey-demo/nightly";
    ClusterSubmit submit = new ClusterSubmit(cluster.sparkSubmit(), jar, work.resolve("logs"));
    // the shipped layouts, as files the cluster's jobs are given
    String v1 = LayoutFiles.resolve("telemetry-v1", "demo").toString();
    String v2 = LayoutFiles.resolve("telemetry-v2", "demo").toString();
    String byDevice = LayoutFiles.resolve("telemetry-by-device", "demo").toString();
    KeyLayout v2Layout = LayoutFiles.load(v2, "demo");
    KeyLayout byDeviceLayout = DemoHistoryTable.layout();
    DemoHistoryTable history = new DemoHistoryTable(out);
    TelemetryGenerator gen = TelemetryGenerator.oneDay(rows, devices);

    // one client connection for the whole story: its own writes, the damage and the checks
    try (Connection conn = ConnectionFactory.createConnection(conf);
        Admin admin = conn.getAdmin()) {
      step(
          "Cluster: HBase on %s with %d RegionServers, Spark %s, YARN",
          fs, admin.getRegionServers().size(), sparkMaster);
      DemoTables.dropAll(admin, out::println);

      step(
          "Legacy table %s (key ts | deviceId), written through the RegionServers",
          DemoTables.TELEMETRY_V1);
      LegacyTelemetryTable.create(admin, DemoTables.TELEMETRY_V1);
      long w0 = System.nanoTime();
      LegacyTelemetryTable.write(conn, DemoTables.TELEMETRY_V1, gen, out::println);
      admin.flush(DemoTables.TELEMETRY_V1);
      out.printf(
          "  %,d readings written in %.1f s (WAL on HDFS); snapshot %s%n",
          rows, (System.nanoTime() - w0) / 1e9, DemoTables.TELEMETRY_V1_SNAPSHOT);
      admin.snapshot(DemoTables.TELEMETRY_V1_SNAPSHOT, DemoTables.TELEMETRY_V1);

      step(
          "Salted table %s (16 salt regions) and history table %s (16 hash-prefix regions), each"
              + " spread over both RegionServers",
          DemoTables.TELEMETRY_V2, DemoTables.TELEMETRY_BY_DEVICE);
      CreateTableResult created =
          TableCreator.table(DemoTables.TELEMETRY_V2)
              .families(List.of(FamilySpec.parse("d:bloom=row,encoding=fast_diff")))
              .splitPoints(SplitChoice.choose(v2Layout, 16, "salt"))
              .create(admin);
      out.println("  " + created.summary());
      history.create(admin, byDeviceLayout);
      for (TableName t : List.of(DemoTables.TELEMETRY_V2, DemoTables.TELEMETRY_BY_DEVICE)) {
        int moved = RegionSpread.interleave(admin, t);
        out.printf(
            "  %s: regions per server (%d moved): %s%n", t, moved, regionsPerServer(admin, t));
      }
      List<String> targets =
          List.of(
              DemoTables.TELEMETRY_V2.getNameAsString() + "=" + v2,
              DemoTables.TELEMETRY_BY_DEVICE.getNameAsString() + "=" + byDevice);

      int failures = 0;
      step(
          "Backfill of both tables from one read of the snapshot, on the Spark standalone master in"
              + " cluster deploy mode (the driver runs on the worker)");
      // each target stages in its own subdir: <staging>/backfill-<table>
      String staging = fs + "/rekey-staging";
      ClusterSubmit.Outcome b =
          submit.run(
              "backfill",
              sparkMaster,
              true,
              ClusterSubmit.backfillDemo(
                  List.of("--hbase-site", site.toString()), v1, targets, staging),
              out::println);
      out.println(
          "  driver " + b.driverId() + ": " + b.driverState() + " (staging " + staging + ")");
      printDriverOutput(b.driverId());
      failures += report(b);

      step(
          "Analyze %s on YARN: regions, requests and salt tails per RegionServer",
          DemoTables.TELEMETRY_V2);
      failures +=
          report(
              submit.run(
                  "analyze",
                  "yarn",
                  false,
                  onTable(
                      "analyze",
                      site,
                      DemoTables.TELEMETRY_V2,
                      v2,
                      "--servers",
                      "2",
                      "--out",
                      work.resolve("analyze").toString()),
                  this::indent));

      step(
          "Reconcile %s vs %s and vs %s on the standalone master",
          DemoTables.TELEMETRY_V1, DemoTables.TELEMETRY_V2, DemoTables.TELEMETRY_BY_DEVICE);
      failures +=
          report(
              submit.run(
                  "reconcile",
                  sparkMaster,
                  false,
                  ClusterSubmit.reconcileDemoDay(
                      List.of("--hbase-site", site.toString()),
                      v1,
                      targets,
                      work.resolve("reconcile")),
                  this::indent));

      step(
          "Nightly scan on YARN (--master yarn): sql/device_window_counts.sql over %s",
          DemoTables.TELEMETRY_V2);
      failures +=
          nightlyScan(
              submit,
              "scan",
              site,
              DemoTables.TELEMETRY_V2,
              v2,
              "device_window_counts.sql",
              nightlyOut);

      // the nightly report on an entity-first table: the day is not a key range there, so the scan
      // reads every region and keeps to the day by skipping the other days' store files on HDFS
      new DemoNightly(out, steps(), work).eventsTable(conn, admin);
      out.println("  the day's report on YARN, through a snapshot:");
      failures +=
          nightlyScan(
              submit,
              "scan-events",
              site,
              DemoTables.EVENTS_V2,
              LayoutFiles.resolve("events-v2", "demo").toString(),
              "user_daily_activity.sql",
              nightlyOut,
              "--via-snapshot");

      step(
          "Repair of both new tables on the standalone master: %d readings deleted from %s and %d"
              + " changed in %s with a plain client, found and put back from one snapshot of %s",
          DAMAGED_ROWS,
          DemoTables.TELEMETRY_V2,
          DAMAGED_ROWS,
          DemoTables.TELEMETRY_BY_DEVICE,
          DemoTables.TELEMETRY_V1);
      deleteReadings(conn, DemoTables.TELEMETRY_V2, v2Layout, gen, DAMAGED_ROWS);
      changeReadings(conn, byDeviceLayout, gen);
      failures +=
          report(
              submit.run(
                  "repair",
                  sparkMaster,
                  false,
                  ClusterSubmit.repairDemoDay(
                      List.of("--hbase-site", site.toString()),
                      v1,
                      targets,
                      work.resolve("repair")),
                  this::indent));

      step(
          "History of one device through the cluster's RegionServers: %s (one range scan) vs %s (16"
              + " salt buckets merged)",
          DemoTables.TELEMETRY_BY_DEVICE, DemoTables.TELEMETRY_V2);
      try {
        history.historyOfDevice(conn, v2Layout, byDeviceLayout, TelemetryGenerator.deviceId(7));
      } catch (RekeyException e) {
        out.println("  FAILED: " + e.getMessage());
        failures++;
      }

      step(
          "An HBase client compares %s with each new table by natural key, every version",
          DemoTables.TELEMETRY_V1);
      Map<String, List<String>> old =
          TableContents.byNaturalKey(conn, DemoTables.TELEMETRY_V1, LayoutFiles.load(v1, "demo"));
      failures +=
          equalByNaturalKey(old, DemoTables.TELEMETRY_V1, conn, DemoTables.TELEMETRY_V2, v2Layout);
      failures +=
          equalByNaturalKey(
              old, DemoTables.TELEMETRY_V1, conn, DemoTables.TELEMETRY_BY_DEVICE, byDeviceLayout);

      out.println();
      out.printf(
          "== Done in %.1f s%s (Spark logs of each job in %s)%n",
          (System.nanoTime() - t0) / 1e9,
          failures == 0 ? "" : ", " + failures + " job(s) FAILED",
          work.resolve("logs"));
      return failures == 0 ? 0 : 1;
    }
  }

  /**
   * Puts another value over the value cell of {@link #DAMAGED_ROWS} readings from half-way into the
   * day in the history table, at the cell's own timestamp (content that differs).
   */
  private void changeReadings(Connection conn, KeyLayout byDevice, TelemetryGenerator gen)
      throws IOException {
    try (Table t = conn.getTable(DemoTables.TELEMETRY_BY_DEVICE)) {
      for (long i = gen.rows() / 2; i < gen.rows() / 2 + DAMAGED_ROWS; i++) {
        TelemetryReading r = gen.reading(i);
        t.put(
            new Put(byDevice.encode(Map.of("ts", r.ts(), "deviceId", r.deviceId())))
                .addColumn(
                    LegacyTelemetryTable.FAMILY,
                    LegacyTelemetryTable.VALUE,
                    r.ts(),
                    Bytes.toBytes(r.value() + 1)));
      }
    }
    out.printf(
        "  changed %d readings' values in %s%n", DAMAGED_ROWS, DemoTables.TELEMETRY_BY_DEVICE);
  }

  /** In cluster deploy mode the driver's output stays with the worker: show it here. */
  private void printDriverOutput(String driverId) throws IOException {
    if (driverId == null) {
      return;
    }
    Optional<Path> found = cluster.driverStdout(driverId);
    if (found.isPresent()) {
      Path stdout = found.get();
      try (Stream<String> lines = Files.lines(stdout)) {
        lines.forEach(this::indent);
      }
      out.println("  (driver output: " + stdout + ")");
    }
  }

  static String regionsPerServer(Admin admin, TableName table) throws IOException {
    Map<String, Integer> counts = new TreeMap<>();
    for (ServerName sn : admin.getRegionServers()) {
      counts.put(
          sn.getAddress().toString(),
          admin.getRegions(sn).stream()
              .filter(r -> r.getTable().equals(table))
              .mapToInt(r -> 1)
              .sum());
    }
    List<String> parts = new ArrayList<>();
    counts.forEach((s, n) -> parts.add(s + " " + n));
    return String.join(", ", parts);
  }

  /**
   * The demo day's scan of {@code table} on YARN with the report {@code sql/<report>}, its output
   * in {@code work/<name>}: 1 when it failed, else 0.
   */
  private int nightlyScan(
      ClusterSubmit submit,
      String name,
      Path site,
      TableName table,
      String layout,
      String report,
      String outRoot,
      String... more)
      throws IOException, InterruptedException {
    List<String> options = new ArrayList<>(List.of(more));
    options.addAll(
        List.of(
            "--day",
            Demo.DEMO_DAY,
            "--report",
            RekeyHome.dir().resolve("sql").resolve(report).toString(),
            "--out",
            outRoot + "/" + name));
    return report(
        submit.run(
            name,
            "yarn",
            false,
            onTable("scan", site, table, layout, options.toArray(String[]::new)),
            this::indent));
  }

  /** A command line of {@code command} on {@code table} with {@code layout} and {@code more}. */
  private static List<String> onTable(
      String command, Path site, TableName table, String layout, String... more) {
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            command,
            "--hbase-site",
            site.toString(),
            "--table",
            table.getNameAsString(),
            "--layout",
            layout));
    args.addAll(List.of(more));
    return args;
  }
}

package dev.rekey.demo;

import dev.rekey.embedded.PseudoCluster;
import dev.rekey.embedded.RekeyHome;
import dev.rekey.jobs.common.HBaseConfigs;
import dev.rekey.jobs.common.LayoutFiles;
import dev.rekey.jobs.createtable.CreateTableResult;
import dev.rekey.jobs.createtable.FamilySpec;
import dev.rekey.jobs.createtable.SplitChoice;
import dev.rekey.jobs.createtable.TableCreator;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The migration story on the pseudo-distributed cluster ({@code rekey demo --cluster}), every job
 * through the cluster's spark-submit as a user would run it: the legacy table written to HBase on
 * HDFS, the salted table's regions spread over both RegionServers, the backfill in cluster deploy
 * mode on the Spark standalone master (HFiles staged on HDFS, so the bulk load is a rename),
 * analyze, reconcile and the nightly scan on YARN.
 */
public final class ClusterDemo extends ClusterStory {
  private final PseudoCluster cluster;

  public ClusterDemo(PseudoCluster cluster, long rows, int devices, Path jar, PrintStream out) {
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
    String sparkMaster = cluster.spark().masterUrl().orElseThrow();
    String fs = cluster.defaultFs().orElseThrow();
    ClusterSubmit submit = new ClusterSubmit(cluster.sparkSubmit(), jar, work.resolve("logs"));
    // the shipped layouts, as files the cluster's jobs are given
    String v1 = LayoutFiles.resolve("telemetry-v1", "demo").toString();
    String v2 = LayoutFiles.resolve("telemetry-v2", "demo").toString();
    TelemetryGenerator gen = TelemetryGenerator.oneDay(rows, devices);

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
          "Salted table %s: 16 salt regions, spread over both RegionServers",
          DemoTables.TELEMETRY_V2);
      CreateTableResult created =
          TableCreator.table(DemoTables.TELEMETRY_V2)
              .families(List.of(FamilySpec.parse("d:bloom=row,encoding=fast_diff")))
              .splitPoints(SplitChoice.choose(LayoutFiles.load(v2, "demo"), 16, "salt"))
              .create(admin);
      out.println("  " + created.summary());
      int moved = RegionSpread.interleave(admin, DemoTables.TELEMETRY_V2);
      out.printf(
          "  regions per server (%d moved): %s%n",
          moved, regionsPerServer(admin, DemoTables.TELEMETRY_V2));
    }

    int failures = 0;
    step(
        "Backfill on the Spark standalone master, cluster deploy mode (the driver runs on the worker)");
    String staging = fs + "/rekey-staging/backfill-telemetry_v2";
    ClusterSubmit.Outcome b =
        submit.run(
            "backfill",
            sparkMaster,
            true,
            ClusterSubmit.backfillDemo(
                List.of("--hbase-site", site.toString()),
                v1,
                DemoTables.TELEMETRY_V2.getNameAsString(),
                v2,
                staging),
            out::println);
    out.println("  driver " + b.driverId() + ": " + b.driverState() + " (staging " + staging + ")");
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
                onTelemetryV2(
                    "analyze",
                    site,
                    v2,
                    "--servers",
                    "2",
                    "--out",
                    work.resolve("analyze").toString()),
                this::indent));

    step(
        "Reconcile %s vs %s on the standalone master",
        DemoTables.TELEMETRY_V1, DemoTables.TELEMETRY_V2);
    failures +=
        report(
            submit.run(
                "reconcile",
                sparkMaster,
                false,
                ClusterSubmit.reconcileDemoDay(
                    List.of("--hbase-site", site.toString()),
                    v1,
                    DemoTables.TELEMETRY_V2.getNameAsString(),
                    v2,
                    work.resolve("reconcile")),
                this::indent));

    step(
        "Nightly scan on YARN (--master yarn): sql/device_window_counts.sql over %s",
        DemoTables.TELEMETRY_V2);
    failures +=
        report(
            submit.run(
                "scan",
                "yarn",
                false,
                onTelemetryV2(
                    "scan",
                    site,
                    v2,
                    "--day",
                    Demo.DEMO_DAY,
                    "--report",
                    RekeyHome.dir().resolve("sql/device_window_counts.sql").toString(),
                    "--out",
                    work.resolve("scan").toString()),
                this::indent));

    out.println();
    out.printf(
        "== Done in %.1f s%s (Spark logs of each job in %s)%n",
        (System.nanoTime() - t0) / 1e9,
        failures == 0 ? "" : ", " + failures + " job(s) FAILED",
        work.resolve("logs"));
    return failures == 0 ? 0 : 1;
  }

  /** In cluster deploy mode the driver's output stays with the worker: show it here. */
  private void printDriverOutput(String driverId) throws IOException {
    if (driverId == null) {
      return;
    }
    Path stdout = cluster.dir().resolve("spark/work").resolve(driverId).resolve("stdout");
    if (Files.exists(stdout)) {
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

  /** A command line of {@code command} on the demo's telemetry_v2, with {@code more} options. */
  private static List<String> onTelemetryV2(String command, Path site, String v2, String... more) {
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            command,
            "--hbase-site",
            site.toString(),
            "--table",
            DemoTables.TELEMETRY_V2.getNameAsString(),
            "--layout",
            v2));
    args.addAll(List.of(more));
    return args;
  }
}

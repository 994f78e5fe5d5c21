package dev.rekey.demo;

import dev.rekey.admin.createtable.FamilySpec;
import dev.rekey.admin.createtable.SplitChoice;
import dev.rekey.admin.createtable.TableCreator;
import dev.rekey.client.DualWriter;
import dev.rekey.common.HBaseConfigs;
import dev.rekey.common.LayoutFiles;
import dev.rekey.embedded.EmbeddedHBase;
import dev.rekey.embedded.PseudoCluster;
import dev.rekey.jobs.reconcile.ReconcileReport;
import dev.rekey.rowkey.KeyLayout;
import java.io.Closeable;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The migration to a new cluster ({@code rekey demo --two-clusters}): the legacy table and its
 * snapshot on the old cluster (the embedded standalone HBase, its files on this machine's disk),
 * the salted table on the new one (the pseudo-distributed cluster: HBase on HDFS, two
 * RegionServers), every job through the new cluster's spark-submit as a user would run it. The
 * backfill reads the old cluster's snapshot files in place (no ExportSnapshot copy); reconcile and
 * repair read each side from its own cluster; an HBase client of each cluster finds the two tables
 * equal at the end.
 */
public final class TwoClusterDemo extends ClusterStory {
  private static final int DAMAGED_ROWS = 3;

  private final EmbeddedHBase old;
  private final PseudoCluster neu;

  public TwoClusterDemo(
      EmbeddedHBase old, PseudoCluster neu, long rows, int devices, Path jar, PrintStream out) {
    super(rows, devices, jar, out);
    this.old = old;
    this.neu = neu;
  }

  /**
   * @return 0 when every job did what the story expects and both clusters' tables are equal
   */
  @Override
  public int run() throws Exception {
    requireRunning(neu, "the two-cluster demo (its new cluster)");
    long t0 = System.nanoTime();
    old.start(Duration.ofSeconds(180)); // or the one already running
    // a demo on the embedded server would drop this one's tables under it, and this one its
    try (Closeable running = old.hold("demo", h -> Demo.anotherDemo(h, old.runDir()))) {
      int failures = story();
      out.println();
      out.printf(
          "== Done in %.1f s%s%n",
          (System.nanoTime() - t0) / 1e9, failures == 0 ? "" : ", " + failures + " step(s) FAILED");
      return failures == 0 ? 0 : 1;
    }
  }

  private int story() throws Exception {
    Path oldSite = old.clientSite();
    Path newSite = neu.clientSite();
    Configuration oldConf = HBaseConfigs.load(oldSite);
    Configuration newConf = HBaseConfigs.load(newSite);
    Path work = neu.dir().resolve("demo-two-clusters");
    String master = neu.spark().masterUrl().orElseThrow();
    String fs = neu.defaultFs().orElseThrow();
    ClusterSubmit submit = new ClusterSubmit(neu.sparkSubmit(), jar, work.resolve("logs"));
    // the shipped layouts, as files the cluster's jobs are given
    String v1 = LayoutFiles.resolve("telemetry-v1", "demo").toString();
    String v2 = LayoutFiles.resolve("telemetry-v2", "demo").toString();
    KeyLayout v1Layout = LayoutFiles.load(v1, "demo");
    KeyLayout v2Layout = LayoutFiles.load(v2, "demo");
    TelemetryGenerator gen = TelemetryGenerator.oneDay(rows, devices);
    int failures = 0;
    try (Connection oc = ConnectionFactory.createConnection(oldConf);
        Admin oa = oc.getAdmin();
        Connection nc = ConnectionFactory.createConnection(newConf);
        Admin na = nc.getAdmin()) {
      step(
          "Old cluster: embedded HBase (hbase.rootdir %s); new cluster: HBase on %s with %d"
              + " RegionServers, Spark %s",
          oldConf.get("hbase.rootdir"), fs, na.getRegionServers().size(), master);
      DemoTables.dropAll(oa, out::println);
      DemoTables.dropAll(na, out::println);

      step("Legacy table %s on the old cluster (key ts | deviceId)", DemoTables.TELEMETRY_V1);
      LegacyTelemetryTable.create(oa, DemoTables.TELEMETRY_V1);
      LegacyTelemetryTable.write(oc, DemoTables.TELEMETRY_V1, gen, out::println);
      oa.flush(DemoTables.TELEMETRY_V1);
      out.printf("  %,d readings written%n", rows);

      step(
          "Salted table %s on the new cluster; writers write the old table on the old cluster and"
              + " the new one on the new (DualWriter, one connection per cluster)",
          DemoTables.TELEMETRY_V2);
      TableCreator.table(DemoTables.TELEMETRY_V2)
          .families(List.of(FamilySpec.parse("d:bloom=row,encoding=fast_diff")))
          .splitPoints(SplitChoice.choose(v2Layout, 16, "salt"))
          .create(na);
      out.printf(
          "  regions per server (%d moved): %s%n",
          RegionSpread.interleave(na, DemoTables.TELEMETRY_V2),
          ClusterDemo.regionsPerServer(na, DemoTables.TELEMETRY_V2));
      // the new table's writes go through the new cluster's connection
      DualWriter writer =
          DualWriter.builder(oc)
              .oldTable(DemoTables.TELEMETRY_V1, v1Layout)
              .newTable(DemoTables.TELEMETRY_V2, v2Layout, nc)
              .build();
      try (DemoDualWrites dual = DemoDualWrites.begin(writer, gen, out)) {
        oa.snapshot(DemoTables.TELEMETRY_V1_SNAPSHOT, DemoTables.TELEMETRY_V1);
        out.printf(
            "  snapshot %s taken on the old cluster; the dual writer keeps writing%n",
            DemoTables.TELEMETRY_V1_SNAPSHOT);
        dual.keepWriting();

        step(
            "Backfill on the new cluster's Spark, reading the old cluster's snapshot files in place"
                + " (--source-hbase-site; no ExportSnapshot copy)");
        failures +=
            report(
                submit.run(
                    "backfill",
                    master,
                    false,
                    ClusterSubmit.backfillDemo(
                        List.of(
                            "--hbase-site",
                            newSite.toString(),
                            "--source-hbase-site",
                            oldSite.toString()),
                        v1,
                        DemoTables.TELEMETRY_V2.getNameAsString(),
                        v2,
                        fs + "/rekey-staging/two-clusters"),
                    this::indent),
                0);
        dual.stop();
      }

      List<String> sites =
          List.of("--hbase-site", newSite.toString(), "--old-hbase-site", oldSite.toString());
      step("Reconcile across the clusters (--old-hbase-site): each side read from its own");
      failures += report(submitReconcile(submit, master, sites, v1, v2, work.resolve("r1")), 0);

      step(
          "Repair across the clusters: %d rows deleted on the new cluster, found by reconcile, put"
              + " back from the old",
          DAMAGED_ROWS);
      deleteReadings(nc, DemoTables.TELEMETRY_V2, v2Layout, gen, DAMAGED_ROWS);
      Path found = work.resolve("r2");
      failures += report(submitReconcile(submit, master, sites, v1, v2, found), 3);
      failures +=
          report(
              submit.run(
                  "repair",
                  master,
                  false,
                  List.of(
                      "repair",
                      "--hbase-site",
                      newSite.toString(),
                      "--old-hbase-site",
                      oldSite.toString(),
                      "--old-table",
                      DemoTables.TELEMETRY_V1.getNameAsString(),
                      "--via-snapshot",
                      "--old-layout",
                      v1,
                      "--new-table",
                      DemoTables.TELEMETRY_V2.getNameAsString(),
                      "--new-layout",
                      v2,
                      "--from-reconcile",
                      found.resolve(ReconcileReport.JSON).toString(),
                      "--compact-if-masked",
                      "--out",
                      work.resolve("repair").toString()),
                  this::indent),
              0);

      step("An HBase client of each cluster compares the tables by natural key, every version");
      failures +=
          equalByNaturalKey(
              TableContents.byNaturalKey(oc, DemoTables.TELEMETRY_V1, v1Layout),
              DemoTables.TELEMETRY_V1,
              nc,
              DemoTables.TELEMETRY_V2,
              v2Layout);
    }
    return failures;
  }

  private ClusterSubmit.Outcome submitReconcile(
      ClusterSubmit submit, String master, List<String> sites, String v1, String v2, Path outDir)
      throws Exception {
    List<String> args =
        ClusterSubmit.reconcileDemoDay(
            sites, v1, DemoTables.TELEMETRY_V2.getNameAsString(), v2, outDir);
    return submit.run("reconcile-" + outDir.getFileName(), master, false, args, this::indent);
  }
}

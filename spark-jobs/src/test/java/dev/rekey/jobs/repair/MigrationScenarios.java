package dev.rekey.jobs.repair;

import static dev.rekey.jobs.repair.RepairFixture.D;
import static dev.rekey.jobs.repair.RepairFixture.HOUR;
import static dev.rekey.jobs.repair.RepairFixture.START;
import static dev.rekey.jobs.repair.RepairFixture.V;
import static dev.rekey.jobs.repair.RepairFixture.V1;
import static dev.rekey.jobs.repair.RepairFixture.V2;
import static dev.rekey.jobs.repair.RepairFixture.reading;
import static dev.rekey.jobs.repair.RepairFixture.v2Key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.admin.replicate.ReplicationPeers;
import dev.rekey.client.Column;
import dev.rekey.client.DualWriter;
import dev.rekey.client.LayoutReader;
import dev.rekey.client.ReadQuery;
import dev.rekey.client.ReadSwitch;
import dev.rekey.common.Clusters;
import dev.rekey.common.Poll;
import dev.rekey.common.Versions;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.dualwrite.KeyedCells;
import dev.rekey.dualwrite.SparkDualWrite;
import dev.rekey.jobs.backfill.Backfill;
import dev.rekey.jobs.backfill.BackfillOptions;
import dev.rekey.jobs.backfill.BackfillResult;
import dev.rekey.jobs.reconcile.Reconcile;
import dev.rekey.jobs.reconcile.ReconcileOptions;
import dev.rekey.jobs.reconcile.ReconcileResult;
import dev.rekey.replication.ReplicationSettings;
import dev.rekey.testing.ClusterSide;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import dev.rekey.testing.TableContents;
import dev.rekey.testing.TelemetryReplication;
import dev.rekey.testing.VersionedTables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The scenarios of a migration between two clusters, each given as a {@link ClusterSide}: the old
 * table's cluster and the new table's. {@link TwoClustersIT} runs them across two servers of the
 * built HBase; the compatibility tier ({@code dev.rekey.compat}) on one server of another HBase
 * version as both sides. Each ends in a natural-key, every-cell, every-version comparison.
 */
public final class MigrationScenarios {
  private MigrationScenarios() {}

  /** What {@link #backfill} leaves: the old table, the snapshot it read, the new table. */
  public record Backfilled(TableName v1, String snapshot, TableName v2) {}

  /**
   * A migration's starting point: 600 readings (some with 3 versions) in a v1 table on {@code old},
   * a snapshot of it taken by {@code old}'s server, an empty 16-region v2 table on {@code neu}.
   */
  public static Backfilled start(ClusterSide old, ClusterSide neu) throws Exception {
    TableName v1 = RepairFixture.v1(old.connection());
    return new Backfilled(v1, RepairFixture.snapshot(old.connection(), v1), emptyV2(neu, "tc_v2"));
  }

  /** The new table holds the old table's 600 rows: by natural key, every cell, every version. */
  public static void assertBackfilled(ClusterSide old, ClusterSide neu, Backfilled m)
      throws Exception {
    Map<String, List<String>> oldRows = TableContents.byNaturalKey(old.connection(), m.v1(), V1);
    assertEquals(600, oldRows.size());
    assertEquals(oldRows, TableContents.byNaturalKey(neu.connection(), m.v2(), V2));
  }

  /**
   * Damage to the new table with a plain client: three rows deleted, a value changed.
   *
   * @return the old table's rows, by natural key
   */
  public static Map<String, List<String>> damage(ClusterSide old, ClusterSide neu, Backfilled m)
      throws Exception {
    Map<String, List<String>> oldRows = TableContents.byNaturalKey(old.connection(), m.v1(), V1);
    try (Table t = neu.connection().getTable(m.v2())) {
      for (long i : new long[] {7, 8, 9}) {
        t.delete(new Delete(v2Key(reading(i))));
      }
      TelemetryReading r = reading(250);
      t.put(new Put(v2Key(r)).addColumn(D, V, r.ts(), Bytes.toBytes(-3L)));
    }
    assertNotEquals(oldRows, TableContents.byNaturalKey(neu.connection(), m.v2(), V2));
    return oldRows;
  }

  /**
   * 600 readings (some with 3 versions) in a v1 table on {@code old}, a snapshot taken by {@code
   * old}'s server, backfilled (HFiles written and bulk-loaded, verified) into an empty 16-region v2
   * table on {@code neu}; readers in SHADOW agree; a reconcile through bin/rekey finds no
   * difference.
   */
  public static Backfilled backfill(ClusterSide old, ClusterSide neu, Path dir) throws Exception {
    Backfilled m = start(old, neu);
    TableName v1 = m.v1();
    String snapshot = m.snapshot();
    TableName v2 = m.v2();
    Clusters clusters = new Clusters(old.conf(), neu.conf());
    assertEquals(old.separateFrom(neu), clusters.separate());
    if (old.separateFrom(neu)) {
      try (Admin other = neu.connection().getAdmin()) {
        assertFalse(other.tableExists(v1), "the old table is only on the old cluster");
      }
    }

    BackfillResult b =
        new Backfill(
                SharedSpark.session(),
                clusters,
                BackfillOptions.builder()
                    .sourceSnapshot(snapshot)
                    .sourceLayout(V1)
                    .targetTable(v2.getNameAsString())
                    .targetLayout(V2)
                    .versions(Versions.ALL)
                    .staging(dir.resolve("staging").toUri().toString())
                    .build())
            .execute(s -> {});
    assertEquals(0, b.exitCode(), b.console());
    assertBackfilled(old, neu, m);

    // readers in SHADOW: served by the old cluster's table, compared with the new cluster's
    try (LayoutReader oldReader = LayoutReader.open(old.connection(), v1, V1);
        LayoutReader newReader = LayoutReader.open(neu.connection(), v2, V2)) {
      ReadSwitch reads = new ReadSwitch(oldReader, newReader, ReadSwitch.Mode.SHADOW);
      assertEquals(
          200, reads.scan(ReadQuery.window(START + HOUR, START + 2 * HOUR)).size(), "hour 1");
      assertTrue(reads.stats().agreed(), reads.stats().line());
      assertEquals(1, reads.stats().shadowReads());
    }

    // the reconcile through bin/rekey, each side named by its own cluster's site
    RekeyProcess.Result same = reconcileCli(old, neu, v1, v2, dir.resolve("r1"));
    assertEquals(0, same.exitCode(), same.all());
    return new Backfilled(v1, snapshot, v2);
  }

  /**
   * Damage to {@link #backfill}'s new table with a plain client (rows deleted, a value changed):
   * reconcile finds it (exit 3), a repair through its own snapshot of the old table fixes it, the
   * tables are equal by natural key again and the repair's snapshot is gone.
   */
  public static void damageReconcileAndRepair(
      ClusterSide old, ClusterSide neu, Backfilled m, Path dir) throws Exception {
    Clusters clusters = new Clusters(old.conf(), neu.conf());
    Map<String, List<String>> oldRows = damage(old, neu, m);
    ReconcileResult differs = reconcile(clusters, m.snapshot(), m.v2());
    assertEquals(3, differs.exitCode(), differs.console(false));

    RepairResult fixed =
        new Repair(
                SharedSpark.session(),
                clusters,
                // the old side through a snapshot the repair takes on the old cluster now: the
                // damage is newer than the backfill's snapshot, and would look like a writer's
                RepairFixture.opts(RepairFixture.oldTable(m.v1()), m.v2(), dir.resolve("repair"))
                    .viaSnapshot(true)
                    .compactIfMasked(true)
                    .build())
            .execute(s -> {});
    assertEquals(0, fixed.exitCode(), fixed.console());
    assertEquals(oldRows, TableContents.byNaturalKey(neu.connection(), m.v2(), V2));
    assertEquals(0, reconcile(clusters, m.snapshot(), m.v2()).exitCode());
    try (Admin oldAdmin = old.connection().getAdmin()) {
      assertEquals(
          List.of(m.snapshot()),
          oldAdmin.listSnapshots().stream()
              .map(d -> d.getName())
              .filter(n -> n.contains(m.v1().getNameAsString()))
              .toList(),
          "the repair's own snapshot of the old table is gone");
    }
  }

  /**
   * The writers during a migration to a new cluster: the client's DualWriter and a Spark job's
   * SparkDualWrite write the old table on the old cluster and the new table on the new one, each
   * through its own cluster's connection (one cluster's twice when both sides are one); the two
   * tables then hold the same rows, which a get by natural key and a merged read of the buckets
   * return, by natural key, every cell and timestamp.
   */
  public static void dualWrites(ClusterSide old, ClusterSide neu) throws Exception {
    TableName v1 = VersionedTables.create(old.connection(), "tc_dw_v1", D, 3, null, List.of());
    TableName v2 = emptyV2(neu, "tc_dw_v2");
    try (DualWriter w =
        DualWriter.builder(old.connection())
            .oldTable(v1, V1)
            .newTable(v2, V2, neu.connection())
            .build()) {
      for (long i = 0; i < 100; i++) {
        TelemetryReading r = reading(i);
        w.mutate(
            Map.of("ts", r.ts(), "deviceId", r.deviceId()),
            List.of(Column.at(D, V, r.ts(), Bytes.toBytes(r.value()))));
      }
      w.flush();
    }
    List<KeyedCells> records = new ArrayList<>();
    for (long i = 100; i < 300; i++) {
      TelemetryReading r = reading(i);
      records.add(
          KeyedCells.of(
              Map.of("ts", r.ts(), "deviceId", r.deviceId()),
              List.of(Column.at(D, V, r.ts(), Bytes.toBytes(r.value())))));
    }
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(SharedSpark.session().sparkContext());
    assertEquals(
        200,
        SparkDualWrite.on(jsc, old.conf())
            .oldTable(v1.getNameAsString(), V1)
            .newTable(v2.getNameAsString(), V2, neu.conf())
            .write(jsc.parallelize(records, 3)));
    Map<String, List<String>> oldRows = TableContents.byNaturalKey(old.connection(), v1, V1);
    assertEquals(300, oldRows.size());
    assertEquals(oldRows, TableContents.byNaturalKey(neu.connection(), v2, V2));
    if (old.separateFrom(neu)) {
      try (Admin a = old.connection().getAdmin()) {
        assertFalse(a.tableExists(v2), "the new table is only on the new cluster");
      }
    }
    // a get by natural key and a merged read of the salted table's buckets, against the old table
    try (LayoutReader oldReader = LayoutReader.open(old.connection(), v1, V1);
        LayoutReader newReader = LayoutReader.open(neu.connection(), v2, V2)) {
      TelemetryReading r = reading(42);
      Map<String, Object> key = Map.of("ts", r.ts(), "deviceId", r.deviceId());
      assertEquals(
          Bytes.toLong(oldReader.get(key).orElseThrow().getValue(D, V)),
          Bytes.toLong(newReader.get(key).orElseThrow().getValue(D, V)));
      ReadQuery window = ReadQuery.window(START, START + HOUR);
      ReadSwitch shadow = new ReadSwitch(oldReader, newReader, ReadSwitch.Mode.SHADOW);
      assertEquals(200, shadow.scan(window).size(), "hour 0, served by the old table");
      assertTrue(shadow.stats().agreed(), shadow.stats().line());
      List<org.apache.hadoop.hbase.client.Result> merged = newReader.scan(window);
      assertEquals(200, merged.size(), "hour 0, merged from every salt bucket");
      for (int i = 1; i < merged.size(); i++) {
        assertTrue(
            (long) V2.decode(merged.get(i - 1).getRow()).fields().get("ts")
                <= (long) V2.decode(merged.get(i).getRow()).fields().get("ts"),
            "the merged read is in time order");
      }
    }
  }

  /**
   * Without touching the writers, across clusters: the rekeying replication endpoint runs in the
   * old cluster's RegionServer and writes the new table on the new cluster (the peer carries that
   * cluster's address, {@code replicate start --target-hbase-site}); Puts and a Delete reach it
   * with their timestamps.
   */
  public static void replicationToOtherCluster(ClusterSide old, ClusterSide neu) throws Exception {
    TableName v1 = VersionedTables.create(old.connection(), "tc_repl_v1", D, 3, null, List.of());
    TableName v2 = emptyV2(neu, "tc_repl_v2");
    TableName quarantine = SharedHBase.uniqueTable("tc_repl_q");
    Map<String, String> newCluster = ReplicationSettings.clusterOf(neu.conf());
    ReplicationSettings settings = TelemetryReplication.settings(v1, v2, quarantine, newCluster);
    ReplicationPeers peers = new ReplicationPeers(old.connection(), neu.connection());
    peers.start(settings);
    try {
      try (Table t = old.connection().getTable(v1)) {
        for (long i = 0; i < 50; i++) {
          t.put(RepairFixture.put(RepairFixture.v1Key(reading(i)), i));
        }
        t.delete(new Delete(RepairFixture.v1Key(reading(3))));
      }
      Map<String, List<String>> oldRows = TableContents.byNaturalKey(old.connection(), v1, V1);
      assertEquals(49, oldRows.size());
      Poll.until(
          () -> oldRows.equals(TableContents.byNaturalKey(neu.connection(), v2, V2)),
          Duration.ofSeconds(120),
          Duration.ofMillis(500),
          () ->
              new IllegalStateException(
                  "the new cluster's table did not reach the old table's content"));
      try (Admin a = neu.connection().getAdmin()) {
        assertTrue(a.tableExists(quarantine), "the quarantine is on the targets' cluster");
      }
    } finally {
      peers.stop(v1.getNameAsString());
    }
  }

  private static ReconcileResult reconcile(Clusters clusters, String snapshot, TableName v2) {
    return new Reconcile(
            SharedSpark.session(),
            clusters,
            ReconcileOptions.builder()
                .old(RepairFixture.oldSnapshot(snapshot))
                .neu(RepairFixture.newTable(v2))
                .from(START)
                .to(START + 3 * HOUR)
                .bucket("1h")
                .digest(true)
                .versions(Versions.ALL)
                .build())
        .execute(s -> {});
  }

  private static RekeyProcess.Result reconcileCli(
      ClusterSide old, ClusterSide neu, TableName v1, TableName v2, Path out) throws Exception {
    return RekeyProcess.run(300, reconcileArgs(old, neu, v1, v2, out).toArray(String[]::new));
  }

  /**
   * The command line of a reconcile of the old table against the new (their first three hours, by
   * the hour, with digests, every version), each side named by its own cluster's site.
   */
  public static List<String> reconcileArgs(
      ClusterSide old, ClusterSide neu, TableName v1, TableName v2, Path out) {
    return List.of(
        "reconcile",
        "--hbase-site",
        old.site().toString(),
        "--new-hbase-site",
        neu.site().toString(),
        "--old-table",
        v1.getNameAsString(),
        "--old-layout",
        "telemetry-v1",
        "--new-table",
        v2.getNameAsString(),
        "--new-layout",
        "telemetry-v2",
        "--from",
        Long.toString(START),
        "--to",
        Long.toString(START + 3 * HOUR),
        "--bucket",
        "1h",
        "--digest",
        "--versions",
        "all",
        "--out",
        out.toString());
  }

  /** An empty telemetry-v2 table on {@code side}: 16 salt regions, 3 versions of family d. */
  public static TableName emptyV2(ClusterSide side, String name) throws Exception {
    return VersionedTables.create(side.connection(), name, D, 3, V2.splitPoints(16), List.of());
  }
}

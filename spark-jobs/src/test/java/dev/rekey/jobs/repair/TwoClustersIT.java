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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.admin.replicate.ReplicationPeers;
import dev.rekey.client.Column;
import dev.rekey.client.DualWriter;
import dev.rekey.client.LayoutReader;
import dev.rekey.client.ReadQuery;
import dev.rekey.client.ReadSwitch;
import dev.rekey.common.Clusters;
import dev.rekey.common.Poll;
import dev.rekey.common.RekeyException;
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
import dev.rekey.testing.OtherCluster;
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
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A migration to a new cluster: the old table and its snapshot on one HBase ({@link SharedHBase}),
 * the new table on another ({@link OtherCluster}: its own ZooKeeper, master and root dir). The
 * backfill reads the old cluster's snapshot files in place and loads into the new cluster;
 * reconcile and repair read each side from its own cluster; an independent client of each cluster
 * finds the tables equal by natural key, every cell and version.
 */
@Tag("e2e")
class TwoClustersIT {
  @TempDir Path dir;

  @Test
  void backfillReconcileAndRepairAcrossTwoClusters() throws Exception {
    TableName v1 = RepairFixture.v1(); // on the old cluster: 600 readings, some with 3 versions
    String snapshot = RepairFixture.snapshot(v1);
    TableName v2 = emptyV2OnTheOtherCluster("tc_v2");
    try (Admin other = OtherCluster.connection().getAdmin()) {
      assertFalse(other.tableExists(v1), "the old table is only on the old cluster");
    }
    Clusters clusters = new Clusters(SharedHBase.conf(), OtherCluster.conf());
    assertTrue(clusters.separate());

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
    Map<String, List<String>> old = TableContents.byNaturalKey(SharedHBase.connection(), v1, V1);
    assertEquals(old, TableContents.byNaturalKey(OtherCluster.connection(), v2, V2));

    // readers in SHADOW: served by the old cluster's table, compared with the new cluster's
    try (LayoutReader oldReader = LayoutReader.open(SharedHBase.connection(), v1, V1);
        LayoutReader newReader = LayoutReader.open(OtherCluster.connection(), v2, V2)) {
      ReadSwitch reads = new ReadSwitch(oldReader, newReader, ReadSwitch.Mode.SHADOW);
      assertEquals(
          200, reads.scan(ReadQuery.window(START + HOUR, START + 2 * HOUR)).size(), "hour 1");
      assertTrue(reads.stats().agreed(), reads.stats().line());
      assertEquals(1, reads.stats().shadowReads());
    }

    // the reconcile through bin/rekey, each side named by its own cluster's site
    RekeyProcess.Result same = reconcileCli(v1, v2, dir.resolve("r1"));
    assertEquals(0, same.exitCode(), same.all());

    // damage on the new cluster with a plain client: rows deleted, a value changed
    try (Table t = OtherCluster.connection().getTable(v2)) {
      for (long i : new long[] {7, 8, 9}) {
        t.delete(new Delete(v2Key(reading(i))));
      }
      TelemetryReading r = reading(250);
      t.put(new Put(v2Key(r)).addColumn(D, V, r.ts(), Bytes.toBytes(-3L)));
    }
    assertNotEquals(old, TableContents.byNaturalKey(OtherCluster.connection(), v2, V2));
    ReconcileResult differs = reconcile(clusters, snapshot, v2);
    assertEquals(3, differs.exitCode(), differs.console(false));

    RepairResult fixed =
        new Repair(
                SharedSpark.session(),
                clusters,
                // the old side through a snapshot the repair takes on the old cluster now: the
                // damage is newer than the backfill's snapshot, and would look like a writer's
                RepairFixture.opts(RepairFixture.oldTable(v1), v2, dir.resolve("repair"))
                    .viaSnapshot(true)
                    .compactIfMasked(true)
                    .build())
            .execute(s -> {});
    assertEquals(0, fixed.exitCode(), fixed.console());
    assertEquals(old, TableContents.byNaturalKey(OtherCluster.connection(), v2, V2));
    assertEquals(0, reconcile(clusters, snapshot, v2).exitCode());
    try (Admin oldAdmin = SharedHBase.connection().getAdmin()) {
      assertEquals(
          List.of(snapshot),
          oldAdmin.listSnapshots().stream()
              .map(d -> d.getName())
              .filter(n -> n.contains(v1.getNameAsString()))
              .toList(),
          "the repair's own snapshot of the old table is gone");
    }
  }

  @Test
  void aSnapshotMissingOnTheSourceClusterIsNamedWithThatCluster() throws Exception {
    TableName v2 = emptyV2OnTheOtherCluster("tc_miss");
    RekeyException e =
        assertThrows(
            RekeyException.class,
            () -> backfillToOtherCluster(SharedHBase.conf(), "tc_no_such_snapshot", v2));
    assertTrue(
        e.getMessage()
            .contains("snapshot tc_no_such_snapshot does not exist on the source cluster"),
        e.getMessage());
    assertTrue(e.getMessage().contains(SharedHBase.conf().get("hbase.rootdir")), e.getMessage());
  }

  @Test
  void anUnreachableSourceFilesystemIsNamedBeforeAnythingIsRead() throws Exception {
    TableName v2 = emptyV2OnTheOtherCluster("tc_unreach");
    Configuration gone = SharedHBase.conf();
    gone.set("hbase.rootdir", "hdfs://127.0.0.1:1/hbase"); // no NameNode there
    gone.set("ipc.client.connect.max.retries", "0");
    RekeyException e =
        assertThrows(RekeyException.class, () -> backfillToOtherCluster(gone, "tc_any", v2));
    assertTrue(
        e.getMessage()
            .startsWith(
                "Cannot reach the source cluster (--source-hbase-site)'s filesystem: hbase.rootdir hdfs://127.0.0.1:1/hbase"),
        e.getMessage());
    assertTrue(
        TableContents.byNaturalKey(OtherCluster.connection(), v2, V2).isEmpty(), "nothing loaded");
  }

  /**
   * The writers during a migration to a new cluster: the client's DualWriter and a Spark job's
   * SparkDualWrite write the old table on the old cluster and the new table on the new one, each
   * through its own cluster's connection; the two tables then hold the same rows by natural key,
   * every cell and timestamp.
   */
  @Test
  void dualWritesReachTheOldTableOnOneClusterAndTheNewOnTheOther() throws Exception {
    TableName v1 = VersionedTables.create("tc_dw_v1", D, 3, null, List.of());
    TableName v2 = emptyV2OnTheOtherCluster("tc_dw_v2");
    try (DualWriter w =
        DualWriter.builder(SharedHBase.connection())
            .oldTable(v1, V1)
            .newTable(v2, V2, OtherCluster.connection())
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
        SparkDualWrite.on(jsc, SharedHBase.conf())
            .oldTable(v1.getNameAsString(), V1)
            .newTable(v2.getNameAsString(), V2, OtherCluster.conf())
            .write(jsc.parallelize(records, 3)));
    Map<String, List<String>> old = TableContents.byNaturalKey(SharedHBase.connection(), v1, V1);
    assertEquals(300, old.size());
    assertEquals(old, TableContents.byNaturalKey(OtherCluster.connection(), v2, V2));
    try (Admin a = SharedHBase.connection().getAdmin()) {
      assertFalse(a.tableExists(v2), "the new table is only on the new cluster");
    }
  }

  /**
   * Without touching the writers, across clusters: the rekeying replication endpoint runs in the
   * old cluster's RegionServer and writes the new table on the new cluster (the peer carries that
   * cluster's address, {@code replicate start --target-hbase-site}); Puts and a Delete reach it
   * with their timestamps.
   */
  @Test
  void replicationRekeysTheOldTablesEditsIntoTheNewClustersTable() throws Exception {
    TableName v1 = VersionedTables.create("tc_repl_v1", D, 3, null, List.of());
    TableName v2 = emptyV2OnTheOtherCluster("tc_repl_v2");
    TableName quarantine = SharedHBase.uniqueTable("tc_repl_q");
    Map<String, String> newCluster = ReplicationSettings.clusterOf(OtherCluster.conf());
    ReplicationSettings settings = TelemetryReplication.settings(v1, v2, quarantine, newCluster);
    ReplicationPeers peers =
        new ReplicationPeers(SharedHBase.connection(), OtherCluster.connection());
    peers.start(settings);
    try {
      try (Table t = SharedHBase.connection().getTable(v1)) {
        for (long i = 0; i < 50; i++) {
          t.put(RepairFixture.put(RepairFixture.v1Key(reading(i)), i));
        }
        t.delete(new Delete(RepairFixture.v1Key(reading(3))));
      }
      Map<String, List<String>> old = TableContents.byNaturalKey(SharedHBase.connection(), v1, V1);
      assertEquals(49, old.size());
      Poll.until(
          () -> old.equals(TableContents.byNaturalKey(OtherCluster.connection(), v2, V2)),
          Duration.ofSeconds(120),
          Duration.ofMillis(500),
          () ->
              new IllegalStateException(
                  "the new cluster's table did not reach the old table's content"));
      try (Admin a = OtherCluster.connection().getAdmin()) {
        assertTrue(a.tableExists(quarantine), "the quarantine is on the targets' cluster");
      }
    } finally {
      peers.stop(v1.getNameAsString());
    }
  }

  /** A backfill of snapshot {@code snapshot} of the cluster {@code source} into v2 on the other. */
  private static BackfillResult backfillToOtherCluster(
      Configuration source, String snapshot, TableName v2) {
    return new Backfill(
            SharedSpark.session(),
            new Clusters(source, OtherCluster.conf()),
            BackfillOptions.builder()
                .sourceSnapshot(snapshot)
                .sourceLayout(V1)
                .targetTable(v2.getNameAsString())
                .targetLayout(V2)
                .build())
        .execute(s -> {});
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

  private static RekeyProcess.Result reconcileCli(TableName v1, TableName v2, Path out)
      throws Exception {
    return RekeyProcess.run(
        300,
        "reconcile",
        "--hbase-site",
        SharedHBase.server().clientSite().toString(),
        "--new-hbase-site",
        OtherCluster.site().toString(),
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

  /** An empty telemetry-v2 table on the other cluster: 16 salt regions, 3 versions of family d. */
  private static TableName emptyV2OnTheOtherCluster(String name) throws Exception {
    return VersionedTables.create(
        OtherCluster.connection(), name, D, 3, V2.splitPoints(16), List.of());
  }
}

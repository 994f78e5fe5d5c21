package dev.rekey.jobs.repair;

import static dev.rekey.jobs.repair.RepairFixture.V1;
import static dev.rekey.jobs.repair.RepairFixture.V2;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.Clusters;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.Backfill;
import dev.rekey.jobs.backfill.BackfillOptions;
import dev.rekey.jobs.backfill.BackfillResult;
import dev.rekey.testing.ClusterSide;
import dev.rekey.testing.OtherCluster;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import dev.rekey.testing.TableContents;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
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
    MigrationScenarios.Backfilled m =
        MigrationScenarios.backfill(ClusterSide.shared(), ClusterSide.other(), dir);
    MigrationScenarios.damageReconcileAndRepair(ClusterSide.shared(), ClusterSide.other(), m, dir);
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
   * through its own cluster's connection (one cluster's twice when both sides are one); the two
   * tables then hold the same rows, which a get by natural key and a merged read of the buckets
   * return, by natural key, every cell and timestamp.
   */
  @Test
  void dualWritesReachTheOldTableOnOneClusterAndTheNewOnTheOther() throws Exception {
    MigrationScenarios.dualWrites(ClusterSide.shared(), ClusterSide.other());
  }

  /**
   * Without touching the writers, across clusters: the rekeying replication endpoint runs in the
   * old cluster's RegionServer and writes the new table on the new cluster (the peer carries that
   * cluster's address, {@code replicate start --target-hbase-site}); Puts and a Delete reach it
   * with their timestamps.
   */
  @Test
  void replicationRekeysTheOldTablesEditsIntoTheNewClustersTable() throws Exception {
    MigrationScenarios.replicationToOtherCluster(ClusterSide.shared(), ClusterSide.other());
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

  /** An empty telemetry-v2 table on the other cluster: 16 salt regions, 3 versions of family d. */
  private static TableName emptyV2OnTheOtherCluster(String name) throws Exception {
    return MigrationScenarios.emptyV2(ClusterSide.other(), name);
  }
}

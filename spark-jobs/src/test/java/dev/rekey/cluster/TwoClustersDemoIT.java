package dev.rekey.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.HBaseConfigs;
import dev.rekey.demo.DemoTables;
import dev.rekey.embedded.PseudoCluster;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.TableContents;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The migration to a new cluster on the two-cluster stack: the embedded standalone HBase (its root
 * dir on the local disk) as the old cluster and the pseudo-distributed one (HBase on HDFS, two
 * RegionServers) as the new, both running at once. {@code bin/rekey demo --two-clusters} backfills
 * from the old cluster's snapshot in place, reconciles and repairs across both; then an HBase
 * client of each cluster, independent of rekey's jobs, finds the tables equal by natural key.
 */
@Tag("cluster")
class TwoClustersDemoIT {
  private static final Path DIR = SharedHBase.runRoot().resolve("cluster");
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");

  @BeforeAll
  static void start() throws Exception {
    SharedHBase.server(); // the old cluster: the demo finds it in REKEY_RUN_DIR/hbase
    ClusterTier.rekey("cluster", "start");
  }

  @AfterAll
  static void stop() throws Exception {
    ClusterTier.rekey("cluster", "stop");
  }

  @Test
  void theDemoMovesTheTableToTheOtherClusterAndBothClientsFindThemEqual() throws Exception {
    RekeyProcess.Result r =
        RekeyProcess.run(900, "demo", "--two-clusters", "--rows", "20000", "--devices", "50");
    System.out.println(r.all());
    assertEquals(0, r.exitCode(), r.all());
    String out = r.stdout();
    assertTrue(out.contains("--source-hbase-site"), out);
    assertEquals(16, out.lines().filter(l -> l.trim().endsWith("VERIFIED")).count(), out);
    assertTrue(out.contains("MATCH: all 24 buckets agree"), out);
    assertTrue(
        out.matches("(?s).*  telemetry_v2 equals telemetry_v1: [\\d,]+ rows, [\\d,]+ cells.*"),
        out);

    PseudoCluster cluster = new PseudoCluster(DIR, s -> {});
    try (Connection newCluster =
            ConnectionFactory.createConnection(HBaseConfigs.load(cluster.clientSite()));
        Admin oldAdmin = SharedHBase.connection().getAdmin();
        Admin newAdmin = newCluster.getAdmin()) {
      assertTrue(oldAdmin.tableExists(DemoTables.TELEMETRY_V1));
      assertTrue(newAdmin.tableExists(DemoTables.TELEMETRY_V2));
      assertTrue(!newAdmin.tableExists(DemoTables.TELEMETRY_V1), "the old table stays on the old");
      Map<String, List<String>> old =
          TableContents.byNaturalKey(SharedHBase.connection(), DemoTables.TELEMETRY_V1, V1);
      assertTrue(old.size() >= 20_000, "the generated readings and the dual writer's");
      assertEquals(old, TableContents.byNaturalKey(newCluster, DemoTables.TELEMETRY_V2, V2));
    }
  }
}

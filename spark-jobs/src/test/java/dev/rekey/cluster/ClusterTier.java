package dev.rekey.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rekey.admin.createtable.FamilySpec;
import dev.rekey.admin.createtable.SplitChoice;
import dev.rekey.admin.createtable.TableCreator;
import dev.rekey.common.HBaseConfigs;
import dev.rekey.embedded.PseudoCluster;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/** The setup the cluster-tier tests share, so each test says only what is its own. */
final class ClusterTier {
  /** The pseudo-distributed cluster's directory, as {@code bin/rekey cluster} uses it. */
  static final Path DIR = SharedHBase.runRoot().resolve("cluster");

  private ClusterTier() {}

  /** {@code bin/rekey ARGS} (five minutes at most), its output printed; exit 0 asserted. */
  static RekeyProcess.Result rekey(String... args) throws Exception {
    RekeyProcess.Result r = RekeyProcess.run(300, args);
    System.out.println(r.all());
    assertEquals(0, r.exitCode(), r.all());
    return r;
  }

  /**
   * {@code rekey cluster start} (a running cluster stays as it is): the cluster in {@link #DIR}.
   */
  static PseudoCluster start() throws Exception {
    PseudoCluster cluster = new PseudoCluster(DIR, System.out::println);
    RekeyProcess.Result r = RekeyProcess.run(300, "cluster", "start");
    assertEquals(0, r.exitCode(), r.all());
    return cluster;
  }

  /** Closes the test's connection (if it has one) and stops the cluster: {@code cluster stop}. */
  static void stop(Connection conn) throws Exception {
    if (conn != null) {
      conn.close();
    }
    rekey("cluster", "stop");
  }

  /**
   * bin/rekey's options for a job on the standalone Spark master {@code masterUrl}: small executors
   * with {@code classPath} on their JVM's class path (HBase's metrics classes sit in Hadoop's
   * package and must come from Hadoop's class loader there, README).
   */
  static List<String> onStandalone(String masterUrl, String classPath) {
    return List.of(
        "--master",
        masterUrl,
        "--conf",
        "spark.executor.memory=768m",
        "--conf",
        "spark.executor.extraClassPath=" + classPath);
  }

  /** A client connection to the cluster, from its client config. */
  static Connection connect(PseudoCluster cluster) throws IOException {
    return ConnectionFactory.createConnection(HBaseConfigs.load(cluster.clientSite()));
  }

  /** Drops the tables an earlier run left, so this run starts from none. */
  static void dropIfPresent(Admin admin, List<TableName> tables) throws IOException {
    for (TableName t : tables) {
      if (admin.tableExists(t)) {
        admin.disableTable(t);
        admin.deleteTable(t);
      }
    }
  }

  /**
   * The backfill's starting point once the legacy {@code source} is written: flushed, its {@code
   * snapshot} taken, and {@code target} created on {@code layout}'s 16 salt buckets (family d).
   */
  static void snapshotAndSaltedTarget(
      Admin admin, TableName source, String snapshot, TableName target, KeyLayout layout)
      throws IOException {
    admin.flush(source);
    admin.snapshot(snapshot, source);
    TableCreator.table(target)
        .families(List.of(FamilySpec.parse("d")))
        .splitPoints(SplitChoice.choose(layout, 16, "salt"))
        .create(admin);
  }
}

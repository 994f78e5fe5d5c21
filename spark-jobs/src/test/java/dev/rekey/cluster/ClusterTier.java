package dev.rekey.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.admin.createtable.FamilySpec;
import dev.rekey.admin.createtable.SplitChoice;
import dev.rekey.admin.createtable.TableCreator;
import dev.rekey.common.HBaseConfigs;
import dev.rekey.embedded.ClusterStack;
import dev.rekey.embedded.HostsCluster;
import dev.rekey.embedded.PseudoCluster;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/** The setup the cluster-tier tests share, so each test says only what is its own. */
final class ClusterTier {
  /**
   * The cluster's directory, as {@code bin/rekey cluster} uses it: the single-host cluster's, or
   * the several-host stack's when the tier runs there ({@link SeveralHostsTierIT}).
   */
  static final Path DIR = SharedHBase.runRoot().resolve("cluster");

  /**
   * Set to {@code hosts} (by {@link SeveralHostsTierIT}) when this JVM runs on the gateway of the
   * several-host stack in {@link #DIR}: the tier's classes use that stack instead of starting the
   * single-host cluster, and leave it running for the runner to stop.
   */
  static final String STACK_PROPERTY = "rekey.it.stack";

  private ClusterTier() {}

  /** {@code bin/rekey ARGS} (five minutes at most), its output printed; exit 0 asserted. */
  static RekeyProcess.Result rekey(String... args) throws Exception {
    RekeyProcess.Result r = RekeyProcess.run(300, args);
    System.out.println(r.all());
    assertEquals(0, r.exitCode(), r.all());
    return r;
  }

  /** This JVM runs on the gateway of the several-host stack in {@link #DIR}. */
  static boolean onHosts() {
    return "hosts".equals(System.getProperty(STACK_PROPERTY));
  }

  /**
   * The stack the tier's class runs on: on the several-host stack's gateway, that stack (running);
   * else {@code rekey cluster start} (a running cluster stays as it is), the cluster in {@link
   * #DIR}.
   */
  static ClusterStack start() throws Exception {
    if (onHosts()) {
      ClusterStack hosts = ClusterStack.in(DIR, System.out::println);
      assertTrue(
          hosts instanceof HostsCluster,
          "-D" + STACK_PROPERTY + "=hosts, and no several-host stack in " + DIR);
      // what an earlier class left killed starts again on its host, as `cluster start` brings a
      // half-running single-host cluster back
      for (PseudoCluster.ProcessStatus p : hosts.processes()) {
        if (p.pid().isEmpty()) {
          hosts.restart(p.role(), java.time.Duration.ofSeconds(240));
        }
      }
      assertTrue(hosts.running(), "every daemon of the stack in " + DIR + " runs");
      return hosts;
    }
    RekeyProcess.Result r = RekeyProcess.run(300, "cluster", "start");
    assertEquals(0, r.exitCode(), r.all());
    return new PseudoCluster(DIR, System.out::println);
  }

  /**
   * Closes the test's connection (if it has one) and stops the cluster ({@code cluster stop}); the
   * several-host stack is left to its runner.
   */
  static void stop(Connection conn) throws Exception {
    if (conn != null) {
      conn.close();
    }
    if (!onHosts()) {
      rekey("cluster", "stop");
    }
  }

  /**
   * Where a test's job writes {@code name} (its staging, a report) so that every host of the stack
   * reaches it: a local directory under {@link #DIR} on the single host, {@code hdfs://} on the
   * several-host stack (a {@code file://} output with executors on other hosts is refused).
   */
  static String scratch(ClusterStack cluster, String name) {
    return onHosts()
        ? cluster.defaultFs().orElseThrow() + "/rekey-it/" + name
        : DIR.resolve(name).toUri().toString();
  }

  /** A client's Hadoop configuration: the sites in $HADOOP_CONF_DIR (a host's), if set. */
  static Configuration hadoopConf() {
    Configuration conf = new Configuration();
    String dir = System.getenv("HADOOP_CONF_DIR");
    if (dir != null) {
      for (String site : List.of("core-site.xml", "hdfs-site.xml")) {
        conf.addResource(new org.apache.hadoop.fs.Path(Path.of(dir, site).toUri()));
      }
    }
    return conf;
  }

  /** Whether {@code uri} (a Hadoop URI) exists. */
  static boolean exists(String uri) throws IOException {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(uri);
    return p.getFileSystem(hadoopConf()).exists(p);
  }

  /** Whether a file under the directory {@code uri} has a path for which {@code test} holds. */
  static boolean anyFileUnder(String uri, java.util.function.Predicate<String> test)
      throws IOException {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(uri);
    FileSystem fs = dir.getFileSystem(hadoopConf());
    if (!fs.exists(dir)) {
      return false;
    }
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(dir, true);
    while (files.hasNext()) {
      if (test.test(files.next().getPath().toString())) {
        return true;
      }
    }
    return false;
  }

  /** The file {@code uri} (a Hadoop URI), read whole. */
  static String read(String uri) throws IOException {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(uri);
    try (InputStream in = p.getFileSystem(hadoopConf()).open(p)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
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
  static Connection connect(ClusterStack cluster) throws IOException {
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

package dev.rekey.testing;

import dev.rekey.embedded.EmbeddedHBase;
import dev.rekey.embedded.TestServer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;

/**
 * The one embedded HBase server process of a test run, shared by every e2e class in the JVM (unique
 * table names per test). It lives in {@code <rekey home>/target/test-run/hbase}; tests that drive
 * {@code bin/rekey} point {@code REKEY_RUN_DIR} at {@link #runRoot()} so the CLI finds the same
 * server. Stopped when the JVM exits.
 */
public final class SharedHBase {
  private static final TestServer SERVER =
      new TestServer(runRoot().resolve("hbase"), "embedded-hbase");
  private static final AtomicInteger TABLE_SEQ = new AtomicInteger();

  private SharedHBase() {}

  public static Path rekeyHome() {
    return Path.of(System.getProperty("rekey.home", "..")).toAbsolutePath().normalize();
  }

  /** The REKEY_RUN_DIR of the test run. */
  public static Path runRoot() {
    return rekeyHome().resolve("target").resolve("test-run");
  }

  public static EmbeddedHBase server() {
    return SERVER.server();
  }

  public static Configuration conf() {
    return SERVER.conf();
  }

  public static Connection connection() {
    return SERVER.connection();
  }

  /** A table name no other test uses in this run. */
  public static TableName uniqueTable(String prefix) {
    return TableName.valueOf(
        prefix + "_" + ProcessHandle.current().pid() + "_" + TABLE_SEQ.incrementAndGet());
  }

  /** The application jar bin/rekey and spark-submit run (built by the package phase). */
  public static Path sparkJar() {
    return rekeyHome().resolve("spark-jobs/target/rekey-spark-jobs-0.1.0-SNAPSHOT-spark.jar");
  }

  /**
   * The jars a Spark distribution would hold, from the CLI's launch classpath: what a {@link
   * dev.rekey.embedded.LocalSparkCluster} of the tests starts its master and workers on.
   */
  public static java.util.List<Path> sparkDistributionJars() throws java.io.IOException {
    Path launchClasspath = rekeyHome().resolve("spark-jobs/target/launch.classpath");
    return dev.rekey.embedded.LocalSparkCluster.jarsOf(
        java.nio.file.Files.readString(launchClasspath).trim(), null);
  }

  /** Store files of a table's regions, as its RegionServers report them now. */
  public static int storeFileCount(org.apache.hadoop.hbase.TableName table) throws Exception {
    int n = 0;
    try (org.apache.hadoop.hbase.client.Admin admin = connection().getAdmin()) {
      for (org.apache.hadoop.hbase.ServerName sn : admin.getRegionServers()) {
        for (org.apache.hadoop.hbase.RegionMetrics m : admin.getRegionMetrics(sn, table)) {
          n += m.getStoreFileCount();
        }
      }
    }
    return n;
  }

  /** A step that deletes snapshot {@code name}, for a fault injected while a job runs. */
  public static Runnable snapshotDeleter(String name) {
    return () -> {
      try (org.apache.hadoop.hbase.client.Admin admin = connection().getAdmin()) {
        admin.deleteSnapshot(name);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    };
  }
}

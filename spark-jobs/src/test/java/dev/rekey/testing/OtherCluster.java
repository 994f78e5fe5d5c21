package dev.rekey.testing;

import dev.rekey.embedded.EmbeddedHBase;
import dev.rekey.embedded.TestServer;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;

/**
 * A second HBase cluster for the tests of a migration to a new cluster: another embedded server
 * (its own ZooKeeper, ports and root dir), beside {@link SharedHBase}'s, started on first use and
 * stopped when the JVM exits. Lives in {@code <rekey home>/target/test-run/hbase-other}.
 */
public final class OtherCluster {
  private static final TestServer SERVER =
      new TestServer(SharedHBase.runRoot().resolve("hbase-other"), "other-hbase");

  private OtherCluster() {}

  public static EmbeddedHBase server() {
    return SERVER.server();
  }

  /** Its client site: what {@code --source-hbase-site} / {@code --new-hbase-site} name. */
  public static Path site() {
    return server().clientSite();
  }

  public static Configuration conf() {
    return SERVER.conf();
  }

  public static Connection connection() {
    return SERVER.connection();
  }
}

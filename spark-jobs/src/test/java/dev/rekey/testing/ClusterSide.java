package dev.rekey.testing;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;

/**
 * One test cluster as a scenario uses it: the test run's {@link SharedHBase}, the {@link
 * OtherCluster}, or a server of another HBase version (the compatibility tier's).
 *
 * @param name what messages call it
 * @param connection a client connection to it
 * @param conf its client configuration
 * @param site its client site file (what {@code --hbase-site} names)
 */
public record ClusterSide(String name, Connection connection, Configuration conf, Path site) {
  /** The test run's shared server. */
  public static ClusterSide shared() {
    return new ClusterSide(
        "the shared server",
        SharedHBase.connection(),
        SharedHBase.conf(),
        SharedHBase.server().clientSite());
  }

  /** The second cluster. */
  public static ClusterSide other() {
    return new ClusterSide(
        "the other cluster", OtherCluster.connection(), OtherCluster.conf(), OtherCluster.site());
  }

  /** Whether {@code other} is another cluster than this one. */
  public boolean separateFrom(ClusterSide other) {
    return !site.equals(other.site);
  }
}

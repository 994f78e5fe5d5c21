package dev.rekey.testing;

import dev.rekey.embedded.EmbeddedHBase;
import dev.rekey.jobs.common.HBaseConfigs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * A second HBase cluster for the tests of a migration to a new cluster: another embedded server
 * (its own ZooKeeper, ports and root dir), beside {@link SharedHBase}'s, started on first use and
 * stopped when the JVM exits. Lives in {@code <rekey home>/target/test-run/hbase-other}.
 */
public final class OtherCluster {
  private static EmbeddedHBase server;
  private static Connection connection;

  private OtherCluster() {}

  public static synchronized EmbeddedHBase server() {
    if (server == null) {
      EmbeddedHBase s =
          new EmbeddedHBase(SharedHBase.runRoot().resolve("hbase-other"), System.out::println);
      s.startEmpty(Duration.ofSeconds(180));
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    close();
                    s.stop(Duration.ofSeconds(60));
                  },
                  "stop-other-hbase"));
      server = s;
    }
    return server;
  }

  /** Its client site: what {@code --source-hbase-site} / {@code --new-hbase-site} name. */
  public static Path site() {
    return server().clientSite();
  }

  public static Configuration conf() {
    return HBaseConfigs.load(site());
  }

  public static synchronized Connection connection() {
    if (connection == null || connection.isClosed()) {
      try {
        connection = ConnectionFactory.createConnection(conf());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return connection;
  }

  private static synchronized void close() {
    if (connection != null) {
      try {
        connection.close();
      } catch (IOException ignored) {
        // the server is going away anyway
      }
    }
  }
}

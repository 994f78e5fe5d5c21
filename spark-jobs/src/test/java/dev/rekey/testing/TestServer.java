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
 * An embedded HBase server of the test run, started empty on first use and stopped (with its
 * connection closed) when the JVM exits: {@link SharedHBase}'s, and {@link OtherCluster}'s second
 * one.
 */
final class TestServer {
  private final Path runDir;
  private final String name;
  private EmbeddedHBase server;
  private Connection connection;

  TestServer(Path runDir, String name) {
    this.runDir = runDir;
    this.name = name;
  }

  synchronized EmbeddedHBase server() {
    if (server == null) {
      EmbeddedHBase s = new EmbeddedHBase(runDir, System.out::println);
      s.startEmpty(
          Duration.ofSeconds(
              180)); // no tables of earlier local runs: each run starts from an empty server
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    closeConnection();
                    s.stop(Duration.ofSeconds(60));
                  },
                  "stop-" + name));
      server = s;
    }
    return server;
  }

  Configuration conf() {
    return HBaseConfigs.load(server().clientSite());
  }

  synchronized Connection connection() {
    if (connection == null || connection.isClosed()) {
      try {
        connection = ConnectionFactory.createConnection(conf());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return connection;
  }

  private synchronized void closeConnection() {
    if (connection != null) {
      try {
        connection.close();
      } catch (IOException ignored) {
        // the server is going away anyway
      }
    }
  }
}

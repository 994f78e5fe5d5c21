package dev.rekey.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * An embedded HBase server of a test run, started empty on first use and stopped (with its
 * connection closed) when the JVM exits. Shared with the other modules' tests as this module's
 * test-jar: the client's ITs have one, spark-jobs' a main one and a second cluster.
 */
public final class TestServer {
  private final Path runDir;
  private final String name;
  private final HBaseVersion version;
  private EmbeddedHBase server;
  private Connection connection;

  /**
   * @param runDir the server's run directory (emptied at start: no tables of earlier local runs)
   * @param name the name of its shutdown hook's thread
   */
  public TestServer(Path runDir, String name) {
    this(runDir, name, HBaseVersion.built());
  }

  /** A server of HBase {@code version} (the compatibility tier's). */
  public TestServer(Path runDir, String name, HBaseVersion version) {
    this.runDir = runDir;
    this.name = name;
    this.version = version;
  }

  /** Stops the server now (and closes the connection), if this started it. */
  public synchronized void stop() {
    closeConnection();
    connection = null;
    if (server != null) {
      server.stop(Duration.ofSeconds(60));
    }
  }

  public synchronized EmbeddedHBase server() {
    if (server == null) {
      EmbeddedHBase s =
          new EmbeddedHBase(runDir, System.out::println, java.util.List.of(), version);
      // no tables of earlier local runs: each run starts from an empty server
      s.startEmpty(Duration.ofSeconds(180));
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

  /** A client configuration of the server (its client site). */
  public Configuration conf() {
    Configuration conf = HBaseConfiguration.create();
    conf.addResource(new org.apache.hadoop.fs.Path(server().clientSite().toUri()));
    return conf;
  }

  /** One connection for the run, opened again if a test closed it. */
  public synchronized Connection connection() {
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

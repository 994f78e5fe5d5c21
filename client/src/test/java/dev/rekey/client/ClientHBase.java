package dev.rekey.client;

import dev.rekey.embedded.EmbeddedHBase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The one embedded HBase server process of this module's e2e run, shared by its IT classes (unique
 * table names). It lives in {@code <rekey home>/target/test-run-client}, apart from spark-jobs'
 * server, so the two modules' runs never stop each other's. Stopped when the JVM exits.
 */
final class ClientHBase {
  private static EmbeddedHBase server;
  private static Connection connection;
  private static final AtomicInteger TABLE_SEQ = new AtomicInteger();

  private ClientHBase() {}

  static synchronized EmbeddedHBase server() {
    if (server == null) {
      EmbeddedHBase s =
          new EmbeddedHBase(
              Layouts.home().resolve("target").resolve("test-run-client").resolve("hbase"),
              System.out::println);
      s.startEmpty(Duration.ofSeconds(180));
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    closeConnection();
                    s.stop(Duration.ofSeconds(60));
                  },
                  "stop-embedded-hbase"));
      server = s;
    }
    return server;
  }

  static Configuration conf() {
    Configuration conf = HBaseConfiguration.create();
    conf.addResource(new org.apache.hadoop.fs.Path(server().clientSite().toUri()));
    return conf;
  }

  static Path clientSite() {
    return server().clientSite();
  }

  static synchronized Connection connection() {
    if (connection == null || connection.isClosed()) {
      try {
        connection = ConnectionFactory.createConnection(conf());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return connection;
  }

  static TableName uniqueTable(String prefix) {
    return TableName.valueOf(
        prefix + "_" + ProcessHandle.current().pid() + "_" + TABLE_SEQ.incrementAndGet());
  }

  private static synchronized void closeConnection() {
    if (connection != null) {
      try {
        connection.close();
      } catch (IOException ignored) {
        // the server is going away anyway
      }
    }
  }
}

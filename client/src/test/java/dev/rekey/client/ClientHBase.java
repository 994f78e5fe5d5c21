package dev.rekey.client;

import dev.rekey.embedded.EmbeddedHBase;
import dev.rekey.embedded.TestServer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;

/**
 * The one embedded HBase server process of this module's e2e run, shared by its IT classes (unique
 * table names). It lives in {@code <rekey home>/target/test-run-client}, apart from spark-jobs'
 * server, so the two modules' runs never stop each other's. Stopped when the JVM exits.
 */
final class ClientHBase {
  private static final TestServer SERVER =
      new TestServer(
          Layouts.home().resolve("target").resolve("test-run-client").resolve("hbase"),
          "client-hbase");
  private static final AtomicInteger TABLE_SEQ = new AtomicInteger();

  private ClientHBase() {}

  static EmbeddedHBase server() {
    return SERVER.server();
  }

  static Configuration conf() {
    return SERVER.conf();
  }

  static Path clientSite() {
    return server().clientSite();
  }

  static Connection connection() {
    return SERVER.connection();
  }

  static TableName uniqueTable(String prefix) {
    return TableName.valueOf(
        prefix + "_" + ProcessHandle.current().pid() + "_" + TABLE_SEQ.incrementAndGet());
  }
}

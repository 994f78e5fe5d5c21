package dev.rekey.testing;

import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Scan;

/**
 * {@link dev.rekey.demo.TableContents} for the tests: a table's whole content by natural key, every
 * cell and version, by default on the test run's shared server.
 */
public final class TableContents {
  private TableContents() {}

  /** Natural key (decoded fields) → cells of the row, every version, in HBase order. */
  public static Map<String, List<String>> byNaturalKey(TableName table, KeyLayout layout)
      throws IOException {
    return byNaturalKey(SharedHBase.connection(), table, layout);
  }

  /** {@link #byNaturalKey(TableName, KeyLayout)} on another cluster's connection. */
  public static Map<String, List<String>> byNaturalKey(
      Connection conn, TableName table, KeyLayout layout) throws IOException {
    return dev.rekey.demo.TableContents.byNaturalKey(conn, table, layout);
  }

  /** As above, of the rows {@code scan} reads (every version, whatever the scan says). */
  public static Map<String, List<String>> byNaturalKey(
      Connection conn, TableName table, KeyLayout layout, Scan scan) throws IOException {
    return dev.rekey.demo.TableContents.byNaturalKey(conn, table, layout, scan);
  }

  public static String naturalKey(KeyLayout layout, byte[] row) {
    return dev.rekey.demo.TableContents.naturalKey(layout, row);
  }

  public static long cells(Map<String, List<String>> contents) {
    return dev.rekey.demo.TableContents.cells(contents);
  }
}

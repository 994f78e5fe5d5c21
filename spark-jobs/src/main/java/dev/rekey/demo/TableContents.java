package dev.rekey.demo;

import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A table's whole content by natural key — the layout's decoded fields, not the row key — with
 * every version of every cell as {@code family:qualifier@timestamp=valueHex}: what "nothing lost"
 * compares across a key change, read with a plain HBase client (no rekey job): the demo's and the
 * tests' independent check that two tables, on one cluster or two, hold the same data.
 */
public final class TableContents {
  private TableContents() {}

  /** Natural key (decoded fields) → cells of the row, every version, in HBase order. */
  public static Map<String, List<String>> byNaturalKey(
      org.apache.hadoop.hbase.client.Connection conn, TableName table, KeyLayout layout)
      throws IOException {
    return byNaturalKey(conn, table, layout, new Scan());
  }

  /** As above, of the rows {@code scan} reads (every version, whatever the scan says). */
  public static Map<String, List<String>> byNaturalKey(
      org.apache.hadoop.hbase.client.Connection conn, TableName table, KeyLayout layout, Scan scan)
      throws IOException {
    Map<String, List<String>> out = new TreeMap<>();
    try (Table t = conn.getTable(table);
        ResultScanner sc = t.getScanner(scan.readAllVersions().setCaching(2000))) {
      for (Result r : sc) {
        String key = naturalKey(layout, r.getRow());
        List<String> cells = new ArrayList<>();
        for (Cell c : r.rawCells()) {
          cells.add(
              String.format(
                  "%s:%s@%d=%s",
                  Bytes.toString(CellUtil.cloneFamily(c)),
                  Bytes.toStringBinary(CellUtil.cloneQualifier(c)),
                  c.getTimestamp(),
                  Hex.of(CellUtil.cloneValue(c))));
        }
        if (out.put(key, cells) != null) {
          throw new AssertionError(table + ": two rows decode to natural key " + key);
        }
      }
    }
    return out;
  }

  /**
   * The decoded fields as {@code name=value,...} in name order, byte fields in hex: the same string
   * for layouts that order the same fields differently (telemetry-v2's ts, deviceId and
   * telemetry-by-device's deviceId, ts).
   */
  public static String naturalKey(KeyLayout layout, byte[] row) {
    StringBuilder b = new StringBuilder();
    new TreeMap<>(layout.decode(row).fields())
        .forEach(
            (name, v) ->
                b.append(b.length() == 0 ? "" : ",")
                    .append(name)
                    .append('=')
                    .append(v instanceof byte[] bytes ? Hex.of(bytes) : String.valueOf(v)));
    return b.toString();
  }

  /** Total cells (every version) over all rows. */
  public static long cells(Map<String, List<String>> contents) {
    return contents.values().stream().mapToLong(List::size).sum();
  }
}

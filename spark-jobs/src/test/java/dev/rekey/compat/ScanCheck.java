package dev.rekey.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.SharedSpark;
import dev.rekey.testing.TableContents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.spark.sql.Row;

/** The scan cells' report and their comparison of what it wrote with the table. */
final class ScanCheck {
  private ScanCheck() {}

  /** {@code dir/cells.sql}: a report of every cell the scan reads (its output: {@code cells/}). */
  static Path report(Path dir) throws Exception {
    Path report = Files.createDirectories(dir).resolve("cells.sql");
    Files.writeString(
        report,
        "-- every cell the scan reads\n"
            + "SELECT ts, deviceId_hex, family, qualifier, cell_ts, value FROM scan_cells\n");
    return report;
  }

  /**
   * The report's parquet at {@code written} holds, by natural key, the newest version of each
   * column of {@code table} (what a scan reads), every cell with its timestamp and value.
   */
  static void assertNewestCellsOf(
      Connection conn, TableName table, KeyLayout layout, String written) throws Exception {
    Map<String, List<String>> expected = new TreeMap<>();
    TableContents.byNaturalKey(conn, table, layout)
        .forEach(
            (key, cells) -> {
              Map<String, String> newest = new LinkedHashMap<>();
              for (String c : cells) {
                newest.putIfAbsent(c.substring(0, c.indexOf('@')), c);
              }
              expected.put(key, new ArrayList<>(newest.values()));
            });
    Map<String, List<String>> scanned = new TreeMap<>();
    for (Row row : SharedSpark.session().read().parquet(written).collectAsList()) {
      String key = "deviceId=" + row.getAs("deviceId_hex") + ",ts=" + row.getAs("ts");
      scanned
          .computeIfAbsent(key, k -> new ArrayList<>())
          .add(
              String.format(
                  "%s:%s@%d=%s",
                  row.<String>getAs("family"),
                  row.<String>getAs("qualifier"),
                  row.<Long>getAs("cell_ts"),
                  Hex.of(row.<byte[]>getAs("value"))));
    }
    scanned.values().forEach(cells -> cells.sort(null));
    expected.values().forEach(cells -> cells.sort(null));
    assertEquals(expected, scanned);
  }
}

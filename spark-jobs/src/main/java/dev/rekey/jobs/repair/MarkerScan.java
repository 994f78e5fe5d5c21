package dev.rekey.jobs.repair;

import dev.rekey.common.HBaseConfigs;
import dev.rekey.rowkey.Hex;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaRDD;

/**
 * The delete markers of the rows a repair puts to, from raw scans of the new table: rows in key
 * order, a few hundred per scan through a {@link MultiRowRangeFilter} (the server seeks from one
 * row to the next), not one scan per row. {@link #masked} runs it in Spark tasks over the HFile
 * path's rows, so that only the masked ones come to the driver.
 */
final class MarkerScan {
  private static final int ROWS_PER_SCAN = 512;

  private MarkerScan() {}

  /**
   * Per row (hex) of {@code rows}, the delete markers the table holds for it (rows with none are
   * absent).
   */
  static Map<String, List<Marker>> markers(Table t, List<byte[]> rows) throws IOException {
    List<byte[]> sorted = new ArrayList<>(rows);
    sorted.sort(Bytes.BYTES_COMPARATOR);
    Map<String, List<Marker>> out = new HashMap<>();
    for (int i = 0; i < sorted.size(); i += ROWS_PER_SCAN) {
      List<byte[]> chunk = sorted.subList(i, Math.min(sorted.size(), i + ROWS_PER_SCAN));
      List<MultiRowRangeFilter.RowRange> ranges = new ArrayList<>();
      for (byte[] r : chunk) {
        ranges.add(new MultiRowRangeFilter.RowRange(r, true, r, true));
      }
      Scan chunkRows =
          new Scan()
              .withStartRow(chunk.get(0))
              .withStopRow(chunk.get(chunk.size() - 1), true)
              .setFilter(new MultiRowRangeFilter(ranges));
      forEach(
          t,
          chunkRows,
          (row, m) -> out.computeIfAbsent(Hex.of(row), k -> new ArrayList<>()).add(m));
    }
    return out;
  }

  /**
   * Each delete marker {@code scan} meets, read raw (every version), with its row. Sets {@code
   * scan} raw and adds the markers-only filter to its own: pass a scan made for this call.
   */
  static void forEach(Table t, Scan scan, BiConsumer<byte[], Marker> each) throws IOException {
    // only cells with an empty value leave the region server (a delete marker has none): a raw scan
    // of a bucket's rows otherwise ships every Put of them to find the few markers, if any
    Filter markersOnly = new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(new byte[0]));
    scan.setFilter(
        scan.getFilter() == null
            ? markersOnly
            : new FilterList(FilterList.Operator.MUST_PASS_ALL, scan.getFilter(), markersOnly));
    try (ResultScanner s = t.getScanner(scan.setRaw(true).readAllVersions())) {
      for (Result r : s) {
        for (Cell c : r.rawCells()) {
          Marker m = Marker.of(c);
          if (m != null) {
            each.accept(r.getRow(), m);
          }
        }
      }
    }
  }

  /** A row whose Puts a delete marker hides, and how ({@link Masking}). */
  record Hidden(RowMutation row, Masking masking) implements java.io.Serializable {}

  /**
   * The rows of {@code rows} some of whose Puts a delete marker hides — older than the snapshot (to
   * compact away) or newer (deleted after it: to keep deleted) — found in Spark tasks, one
   * connection per task, to the driver.
   */
  static List<Hidden> hidden(
      JavaRDD<RowMutation> rows,
      Map<String, String> conf,
      String table,
      long snapshotTime,
      Set<String> writtenAfter) {
    List<Hidden> out =
        new ArrayList<>(
            rows.filter(m -> !m.fix().puts().isEmpty())
                .mapPartitions(it -> hiddenIn(it, conf, table, snapshotTime, writtenAfter))
                .collect());
    out.sort(Comparator.comparing(h -> h.row().rowHex()));
    return out;
  }

  private static Iterator<Hidden> hiddenIn(
      Iterator<RowMutation> it,
      Map<String, String> conf,
      String table,
      long snapshotTime,
      Set<String> writtenAfter)
      throws IOException {
    List<RowMutation> rows = new ArrayList<>();
    it.forEachRemaining(rows::add);
    List<Hidden> out = new ArrayList<>();
    if (rows.isEmpty()) {
      return out.iterator();
    }
    try (Connection c = ConnectionFactory.createConnection(HBaseConfigs.fromMap(conf));
        Table t = c.getTable(TableName.valueOf(table))) {
      Map<String, List<Marker>> markers = markers(t, rows.stream().map(RowMutation::row).toList());
      for (RowMutation m : rows) {
        List<Marker> ms = markers.get(m.rowHex());
        Masking k = ms == null ? null : Masking.of(m.fix().puts(), ms, snapshotTime, writtenAfter);
        if (k != null && (k.masked() || !k.deletedAfterSnapshot().isEmpty())) {
          out.add(new Hidden(m, k));
        }
      }
    }
    return out.iterator();
  }
}

package dev.rekey.jobs.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.RowDecoder;
import dev.rekey.read.PartitionFold;
import dev.rekey.read.PartitionMap;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * The per-partition step with rows kept for reports, and the report-less fold's tally of the same
 * rows, without a cluster.
 */
class PartitionScanTest {
  private static final KeyLayout LAYOUT = Layouts.shipped("telemetry-v1");
  private static final int ROWS = 2_500; // more than two blocks of rows

  /** ROWS rows of two cells each, then one key the layout does not decode. */
  private static List<Result> rows() {
    List<Result> out = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      byte[] key = LAYOUT.encode(Map.of("ts", 1_000L + i, "deviceId", new byte[16]));
      out.add(
          Result.create(
              new Cell[] {
                new KeyValue(key, Bytes.toBytes("d"), Bytes.toBytes("a"), 5L, Bytes.toBytes(i)),
                new KeyValue(key, Bytes.toBytes("d"), Bytes.toBytes("b"), 5L, Bytes.toBytes("x"))
              }));
    }
    out.add(
        Result.create(
            new Cell[] {
              new KeyValue(
                  Bytes.toBytes("bad"), Bytes.toBytes("d"), Bytes.toBytes("a"), 5L, new byte[1])
            }));
    return out;
  }

  /** The rows streamed into the sink that keeps them for reports, the 10th dropped and again. */
  private static List<ScanRecord> run() {
    List<ScanRecord> out = new ArrayList<>();
    PartitionMap.Sink s = new PartitionScan(new RowDecoder(LAYOUT), 5).open(3, out::add);
    int i = 0;
    for (Result r : rows()) {
      if (i++ == 10) {
        s.startRow(r.getRow());
        s.cell(r.rawCells()[0]);
        s.dropRow();
      }
      s.startRow(r.getRow());
      for (Cell c : r.rawCells()) {
        s.cell(c);
      }
      s.endRow();
    }
    s.finish();
    return out;
  }

  /**
   * The report-less fold: the same rows streamed into a tally, the first one dropped midway and
   * streamed again (as when the reader hands a split to HBase's reader at that row).
   */
  private static RegionStats tallied() {
    PartitionFold.Sink<RegionStats> t = ScanTally.fold(new RowDecoder(LAYOUT), 5).open(3);
    boolean dropped = false;
    for (Result r : rows()) {
      t.startRow(r.getRow());
      t.cell(r.rawCells()[0]);
      if (!dropped) {
        dropped = true;
        t.dropRow();
        t.startRow(r.getRow());
        t.cell(r.rawCells()[0]);
      }
      for (int i = 1; i < r.rawCells().length; i++) {
        t.cell(r.rawCells()[i]);
      }
      t.endRow();
    }
    return t.result();
  }

  @Test
  void withoutReportsTheTallyOfStreamedRowsIsTheStatsOfTheRowsKeptForReports() {
    List<ScanRecord> kept = run();
    RegionStats s = tallied();
    assertEquals(3, s.partition());
    assertEquals(ROWS, s.rows());
    assertEquals(2L * ROWS, s.cells());
    assertEquals(1, s.undecodable());
    assertEquals(1, s.samples().size());

    RegionStats withRows = kept.get(kept.size() - 1).stats();
    assertEquals(
        List.of(withRows.rows(), withRows.cells(), withRows.bytes(), withRows.undecodable()),
        List.of(s.rows(), s.cells(), s.bytes(), s.undecodable()));
    assertEquals(withRows.firstKeyHex(), s.firstKeyHex());
    assertTrue(kept.size() > 2, "with reports the rows come in blocks before the stats");
    assertEquals(
        ROWS,
        kept.stream().filter(r -> !r.isStats()).mapToInt(r -> r.rows().rows()).sum(),
        "every decodable row is in a block");
    // each kept row's cells, in order, the dropped row once
    int i = 0;
    for (ScanRecord r : kept.subList(0, kept.size() - 1)) {
      for (var it = r.rows().rowsInOrder(); it.hasNext(); i++) {
        RowBlock.Row row = it.next();
        assertEquals(2, row.cells().size());
        assertEquals(i, Bytes.toInt(row.cells().get(0).value()));
      }
    }
    assertEquals(ROWS, i);
  }
}

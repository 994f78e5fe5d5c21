package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rekey.rowkey.KeyLayout;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The backfill's two read paths re-key alike: the same source rows, as Results ({@link
 * RekeyedRows}) and streamed as cells ({@link RekeyingSink}, rows dropped mid-way and streamed
 * again as the reader does at a delete marker), give the same rows — target keys, times, every
 * cell's family, qualifier, timestamp, type and value — and the same counts of rows read,
 * quarantined (an undecodable key, an oversized cell) and cell versions left out.
 */
@Tag("unit")
class RekeyingSinkTest {
  // a user-and-time key salted, time first (BadKeysTest's layouts)
  private static final KeyLayout SOURCE = BadKeysTest.SOURCE;
  private static final KeyLayout TARGET = BadKeysTest.TARGET;
  private static final byte[] D = Bytes.toBytes("d");
  private static final byte[] E = Bytes.toBytes("e");

  /** Rows of every kind: versions over the cap, two families, a bad key, an oversized value. */
  private static List<Cell[]> sourceRows() {
    List<Cell[]> rows = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      byte[] key = SOURCE.encode(Map.of("user", "u" + i, "ts", 1_700_000_000_000L + i * 1000L));
      List<Cell> cells = new ArrayList<>();
      for (int v = 3; v >= 1; v--) { // three versions of d:a, newest first; the cap keeps two
        cells.add(new KeyValue(key, D, Bytes.toBytes("a"), 100L + v, Bytes.toBytes("a" + i + v)));
      }
      cells.add(new KeyValue(key, D, Bytes.toBytes("b"), 7L, Bytes.toBytes("b" + i)));
      byte[] value = Bytes.toBytes(i == 13 ? "x".repeat(400) : "e" + i); // row 13: too big
      cells.add(new KeyValue(key, E, Bytes.toBytes("c"), 9L, value));
      rows.add(cells.toArray(new Cell[0]));
    }
    // a key the source layout cannot decode (no terminator after the user)
    rows.add(
        new Cell[] {new KeyValue(Bytes.toBytes("nope"), D, Bytes.toBytes("a"), 1L, new byte[1])});
    return rows;
  }

  private static RowCounters counters() {
    return new RowCounters(
        new Rekeyer(SOURCE, TARGET, 300), new Retention(Map.of("d", 2, "e", 3), 3));
  }

  @Test
  void streamedCellsRekeyAsResultsDo() throws Exception {
    List<Cell[]> source = sourceRows();

    RowCounters viaResults = counters();
    List<RekeyedRows.Row> fromResults = new ArrayList<>();
    Iterator<Result> results = source.stream().map(Result::create).iterator();
    new RekeyedRows(results, new RowRekeying(viaResults, QuarantineWriter.none()))
        .forEachRemaining(fromResults::add);

    RowCounters viaCells = counters();
    Collected fromCells = new Collected();
    RekeyingSink<List<InOrderHFiles.WrittenFile>> sink =
        new RekeyingSink<>(new RowRekeying(viaCells, QuarantineWriter.none()), fromCells);
    for (int r = 0; r < source.size(); r++) {
      Cell[] cells = source.get(r);
      if (r % 3 == 0) { // part of the row, then dropped: the reader hands the row over
        sink.startRow(CellUtil.cloneRow(cells[0]));
        sink.cell(cells[0]);
        sink.cell(cells[1]);
        sink.dropRow();
      }
      sink.startRow(CellUtil.cloneRow(cells[0]));
      for (Cell c : cells) {
        sink.cell(c);
      }
      sink.endRow();
    }
    sink.result();

    assertEquals(19, fromResults.size(), "20 good keys less the row with an oversized cell");
    assertEquals(fromResults.size(), fromCells.rows.size());
    for (int i = 0; i < fromResults.size(); i++) {
      RekeyedRows.Row a = fromResults.get(i);
      RekeyedRows.Row b = fromCells.rows.get(i);
      assertArrayEquals(a.sourceKey(), b.sourceKey());
      assertArrayEquals(a.targetKey(), b.targetKey());
      assertEquals(a.time(), b.time());
      assertEquals(4, b.cells().length, "two of three versions of d:a, d:b, e:c");
      assertEquals(a.cells().length, b.cells().length);
      for (int c = 0; c < a.cells().length; c++) {
        Cell x = a.cells()[c];
        Cell y = b.cells()[c];
        assertArrayEquals(b.targetKey(), CellUtil.cloneRow(y), "packed under the target key");
        assertArrayEquals(CellUtil.cloneFamily(x), CellUtil.cloneFamily(y));
        assertArrayEquals(CellUtil.cloneQualifier(x), CellUtil.cloneQualifier(y));
        assertEquals(x.getTimestamp(), y.getTimestamp());
        assertEquals(x.getTypeByte(), y.getTypeByte());
        assertArrayEquals(CellUtil.cloneValue(x), CellUtil.cloneValue(y));
      }
    }
    for (RowCounters c : List.of(viaResults, viaCells)) {
      assertEquals(21, c.read.value(), "each row read once, dropped parts not counted");
      assertEquals(2, c.quarantined.value());
      assertEquals(19, c.olderVersions.value(), "the third d:a of each row written");
    }
  }

  /** The rows a task would write. */
  private static final class Collected
      implements RekeyingSink.Rows<List<InOrderHFiles.WrittenFile>> {
    final List<RekeyedRows.Row> rows = new ArrayList<>();

    @Override
    public void add(RekeyedRows.Row row) {
      rows.add(row);
    }

    @Override
    public List<InOrderHFiles.WrittenFile> finish() {
      return List.of();
    }
  }
}

package dev.rekey.jobs.backfill.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rekey.jobs.backfill.BadKeysTest;
import dev.rekey.jobs.backfill.plan.Retention;
import dev.rekey.rowkey.KeyLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.util.LongAccumulator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Source rows streamed as cells into {@link StreamRekeyer} (rows dropped mid-way and streamed
 * again, as the reader does at a delete marker) come out re-keyed: each row under the target key
 * the {@link Rekeyer} gives its source key, with its time, and every kept cell's family, qualifier,
 * timestamp, type and value; rows read, quarantined (an undecodable key, an oversized cell) and
 * cell versions left out are counted once each.
 */
@Tag("unit")
class StreamRekeyerTest {
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

  /** Counters outside any Spark job: accumulators registered with none, read where they are. */
  private static RowCounters counters() {
    return new RowCounters(
        new Rekeyer(SOURCE, TARGET, 300),
        new Retention(Map.of("d", 2, "e", 3), 3),
        name -> new LongAccumulator());
  }

  @Test
  void streamedCellsComeOutRekeyedTrimmedAndCountedOnce() throws Exception {
    List<Cell[]> source = sourceRows();
    RowCounters counters = counters();
    Collected out = new Collected();
    StreamRekeyer<List<InOrderHFiles.WrittenFile>> sink =
        new StreamRekeyer<>(new RowRekeyer(counters, QuarantineWriter.none()), out);
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

    assertEquals(19, out.rows.size(), "20 good keys less the row with an oversized cell");
    Rekeyer rekeyer = counters.rekeyer();
    int i = 0;
    for (Cell[] cells : source.subList(0, 20)) {
      byte[] key = CellUtil.cloneRow(cells[0]);
      if (CellUtil.cloneValue(cells[4]).length > 300) { // row 13: quarantined, not written
        continue;
      }
      RowRekeyer.Rekeyed got = out.rows.get(i++);
      Rekeyer.Rekeyed want = rekeyer.rekeyWithTime(key);
      assertArrayEquals(key, got.sourceKey());
      assertArrayEquals(want.key(), got.targetKey());
      assertEquals(want.time(), got.time());
      // two of three versions of d:a (the newest), d:b, e:c
      Cell[] kept = {cells[0], cells[1], cells[3], cells[4]};
      assertEquals(kept.length, got.cells().length);
      for (int c = 0; c < kept.length; c++) {
        Cell x = kept[c];
        Cell y = got.cells()[c];
        assertArrayEquals(want.key(), CellUtil.cloneRow(y), "packed under the target key");
        assertArrayEquals(CellUtil.cloneFamily(x), CellUtil.cloneFamily(y));
        assertArrayEquals(CellUtil.cloneQualifier(x), CellUtil.cloneQualifier(y));
        assertEquals(x.getTimestamp(), y.getTimestamp());
        assertEquals(x.getTypeByte(), y.getTypeByte());
        assertArrayEquals(CellUtil.cloneValue(x), CellUtil.cloneValue(y));
      }
    }
    assertEquals(21, counters.read.value(), "each row read once, dropped parts not counted");
    assertEquals(2, counters.quarantined.value());
    assertEquals(19, counters.olderVersions.value(), "the third d:a of each row written");
  }

  /** The rows a task would write. */
  private static final class Collected
      implements StreamRekeyer.Rows<List<InOrderHFiles.WrittenFile>> {
    final List<RowRekeyer.Rekeyed> rows = new ArrayList<>();

    @Override
    public void add(RowRekeyer.Rekeyed row) {
      rows.add(row);
    }

    @Override
    public List<InOrderHFiles.WrittenFile> finish() {
      return List.of();
    }
  }
}

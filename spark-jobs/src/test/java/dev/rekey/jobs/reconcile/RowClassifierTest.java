package dev.rekey.jobs.reconcile;

import static dev.rekey.jobs.reconcile.ReconcilePlanTest.DAY;
import static dev.rekey.jobs.reconcile.ReconcilePlanTest.V1;
import static dev.rekey.jobs.reconcile.ReconcilePlanTest.V2;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.TimeWindow;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** One row to one record, with HBase's in-memory cells (no server). */
@Tag("unit")
class RowClassifierTest {
  static final long H = 3_600_000L;
  static final byte[] DEV = Bytes.toBytes("0123456789abcdef");
  static final TimeBuckets BUCKETS = new TimeBuckets(new TimeWindow(DAY, DAY + 4 * H), H);
  static final NaturalKey NK = NaturalKey.common(V1, V2);

  static Cell[] cells(byte[] row, long ts, long value) {
    return new Cell[] {
      new KeyValue(row, Bytes.toBytes("d"), Bytes.toBytes("s"), ts, Bytes.toBytes("ok")),
      new KeyValue(row, Bytes.toBytes("d"), Bytes.toBytes("v"), ts, Bytes.toBytes(value))
    };
  }

  static byte[] key(dev.rekey.rowkey.KeyLayout l, long ts) {
    return l.encode(Map.of("ts", ts, "deviceId", DEV));
  }

  /** One whole row streamed through the classifier, as a job's read streams it. */
  static RowRecord classify(RowClassifier c, byte[] key, Cell[] cells) {
    RowClassifier.StreamedRow row = c.streamed();
    row.start(key);
    for (Cell cell : cells) {
      row.cell(cell);
    }
    return row.finish();
  }

  @Test
  void sameReadingInBothLayoutsGivesTheSameRecordApartFromTheRowKey() {
    RowClassifier c1 = new RowClassifier(V1, NK, new TimeSource("ts"), BUCKETS, true);
    RowClassifier c2 = new RowClassifier(V2, NK, new TimeSource("ts"), BUCKETS, true);
    long ts = DAY + 2 * H + 5;
    RowRecord a = classify(c1, key(V1, ts), cells(key(V1, ts), ts, 42));
    RowRecord b = classify(c2, key(V2, ts), cells(key(V2, ts), ts, 42));
    assertEquals(2, a.bucket());
    assertEquals(2, b.bucket());
    assertArrayEquals(a.naturalKey(), b.naturalKey());
    assertEquals(a.digest(), b.digest());
    assertEquals(2, a.cells());
    assertNotEquals(a.digest(), classify(c2, key(V2, ts), cells(key(V2, ts), ts, 43)).digest());
    assertNull(classify(c1.withDigest(false), key(V1, ts), cells(key(V1, ts), ts, 42)).digest());
  }

  @Test
  void outsideRangeUndecodableAndCellTime() {
    RowClassifier byKey = new RowClassifier(V1, NK, new TimeSource("ts"), BUCKETS, false);
    long late = DAY + 4 * H;
    assertEquals(
        RowRecord.OUTSIDE, classify(byKey, key(V1, late), cells(key(V1, late), late, 1)).bucket());
    RowRecord bad = classify(byKey, key(V2, DAY), cells(key(V2, DAY), DAY, 1));
    assertTrue(bad.undecodable());
    assertTrue(
        bad.reason().contains("trailing bytes") || bad.reason().contains("telemetry-v1"),
        bad.reason());

    // cell time: the key says hour 0, the cells say hour 3
    RowClassifier byCell = new RowClassifier(V1, NK, TimeSource.CELL, BUCKETS, false);
    RowRecord r = classify(byCell, key(V1, DAY), cells(key(V1, DAY), DAY + 3 * H, 1));
    assertEquals(3, r.bucket());
    assertEquals(DAY + 3 * H, r.time());
    // a counts pass by cell time still checks every key
    assertTrue(classify(byCell, key(V2, DAY), cells(key(V2, DAY), DAY, 1)).undecodable());
    // and one by key time reads the same time as the digest pass's full decode
    long ts = DAY + H + 7;
    assertEquals(
        classify(byKey.withDigest(true), key(V1, ts), cells(key(V1, ts), ts, 1)).time(),
        classify(byKey, key(V1, ts), cells(key(V1, ts), ts, 1)).time());
  }

  @Test
  void tallyAccountsForEveryRow() {
    RowClassifier c = new RowClassifier(V1, NK, new TimeSource("ts"), BUCKETS, true);
    SideTally t = new SideTally(BUCKETS.count());
    for (int i = 0; i < 10; i++) {
      long ts = DAY + i * H / 2; // 8 in range, 2 after
      t.add(classify(c, key(V1, ts), cells(key(V1, ts), ts, i)));
    }
    t.add(classify(c, new byte[] {1, 2}, new Cell[0]));
    SideTally other = new SideTally(BUCKETS.count()).merge(t);
    assertEquals(8, other.inRange());
    assertEquals(2, other.outside());
    assertEquals(1, other.undecodable());
    assertEquals(11, other.read());
    assertEquals(2, other.bucket(0).rows());
    assertEquals(4, other.bucket(0).cells());
  }
}

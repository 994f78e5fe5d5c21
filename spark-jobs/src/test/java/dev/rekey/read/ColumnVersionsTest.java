package dev.rekey.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class ColumnVersionsTest {
  private static Cell put(String row, String q, long ts) {
    return new KeyValue(
        Bytes.toBytes(row), Bytes.toBytes("d"), Bytes.toBytes(q), ts, Bytes.toBytes(ts));
  }

  /**
   * The timestamps kept, cells fed in store order; the same rules fed each cell's qualifier bytes
   * and timestamp (a streamed read's way) must keep the same cells.
   */
  private static List<Long> kept(Supplier<ColumnVersions> make, Cell... cells) {
    ColumnVersions rules = make.get();
    ColumnVersions streamed = make.get();
    List<Long> out = new ArrayList<>();
    Cell previous = null;
    for (Cell c : cells) {
      if (previous == null || !CellUtil.matchingRows(previous, c)) {
        rules.newRow();
        streamed.newRow();
      }
      previous = c;
      boolean accepted = rules.accept(c);
      assertEquals(
          accepted,
          streamed.accept(
              c.getQualifierArray(),
              c.getQualifierOffset(),
              c.getQualifierLength(),
              c.getTimestamp()),
          "the same decision from the qualifier's bytes for " + c);
      if (accepted) {
        out.add(c.getTimestamp());
      }
    }
    return out;
  }

  @Test
  void atMostMaxVersionsPerColumnNewestFirst() {
    Supplier<ColumnVersions> rules = () -> new ColumnVersions(0, Long.MAX_VALUE, Long.MIN_VALUE, 2);
    assertEquals(
        List.of(5L, 4L, 9L, 3L, 2L),
        kept(
            rules,
            put("a", "x", 5),
            put("a", "x", 4),
            put("a", "x", 3),
            put("a", "y", 9),
            put("b", "x", 3),
            put("b", "x", 2),
            put("b", "x", 1)));
  }

  @Test
  void theTimeRangeIsInclusiveAtItsStartAndExclusiveAtItsEndAndVersionsCountInsideIt() {
    Supplier<ColumnVersions> rules = () -> new ColumnVersions(3, 6, Long.MIN_VALUE, 2);
    assertEquals(
        List.of(5L, 4L),
        kept(
            rules,
            put("a", "x", 7),
            put("a", "x", 6),
            put("a", "x", 5),
            put("a", "x", 4),
            put("a", "x", 3)));
    assertEquals(List.of(3L), kept(rules, put("b", "x", 3), put("b", "x", 2)));
  }

  @Test
  void cellsOlderThanTheTtlAreGone() {
    Supplier<ColumnVersions> rules = () -> new ColumnVersions(0, Long.MAX_VALUE, 100, 10);
    assertEquals(
        List.of(150L, 100L),
        kept(rules, put("a", "x", 150), put("a", "x", 100), put("a", "x", 99)));
  }

  @Test
  void aSecondCellWithTheSameTimestampIsNotAnotherVersion() {
    Supplier<ColumnVersions> rules = () -> new ColumnVersions(0, Long.MAX_VALUE, Long.MIN_VALUE, 3);
    assertEquals(
        List.of(5L, 4L), kept(rules, put("a", "x", 5), put("a", "x", 5), put("a", "x", 4)));
  }
}

package dev.rekey.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.rekey.rowkey.KeyRange;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.mapreduce.TableSplit;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What a live read's split carries to its task, and the scan each of its ranges runs. */
@Tag("unit")
class LiveTableInputFormatTest {
  private static byte[] k(int... b) {
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      out[i] = (byte) b[i];
    }
    return out;
  }

  @Test
  void aSplitsRangesSurviveItsTripToTheTask() throws Exception {
    TableSplit region =
        new TableSplit(TableName.valueOf("t"), null, k(1), k(2), "host", "enc", 1234L);
    List<KeyRange> ranges = List.of(new KeyRange(k(1, 5), k(1, 6)), new KeyRange(k(1, 0xf0), k(2)));
    LiveTableInputFormat.RangesSplit sent = new LiveTableInputFormat.RangesSplit(region, ranges);
    DataOutputBuffer out = new DataOutputBuffer();
    sent.write(out);
    DataInputBuffer in = new DataInputBuffer();
    in.reset(out.getData(), out.getLength());
    LiveTableInputFormat.RangesSplit got = new LiveTableInputFormat.RangesSplit();
    got.readFields(in);
    assertEquals(ranges, got.ranges());
    assertArrayEquals(k(1), got.getStartRow());
    assertArrayEquals(k(2), got.getEndRow());
    assertEquals("host", got.getRegionLocation());
    assertEquals(1234L, got.getLength());

    LiveTableInputFormat.RangesSplit none = new LiveTableInputFormat.RangesSplit(region, List.of());
    out.reset();
    none.write(out);
    in.reset(out.getData(), out.getLength());
    got.readFields(in);
    assertEquals(List.of(), got.ranges(), "a region the window misses: its task reads nothing");
  }

  @Test
  void eachRangesScanKeepsEverythingButTheRangeFilter() throws Exception {
    MultiRowRangeFilter ranges =
        new MultiRowRangeFilter(
            new java.util.ArrayList<>(
                List.of(new MultiRowRangeFilter.RowRange(k(1), true, k(2), false))));
    Scan alone = new Scan().setFilter(ranges).setTimeRange(10, 20).setCaching(500);
    Scan stripped = LiveTableInputFormat.withoutKeyRanges(alone);
    assertNull(stripped.getFilter());
    assertEquals(10, stripped.getTimeRange().getMin(), "the cell time range stays");
    assertEquals(500, stripped.getCaching());

    Scan withKeysOnly =
        new Scan()
            .setFilter(
                new FilterList(FilterList.Operator.MUST_PASS_ALL, ranges, new KeyOnlyFilter()));
    assertInstanceOf(
        KeyOnlyFilter.class, LiveTableInputFormat.withoutKeyRanges(withKeysOnly).getFilter());
    assertInstanceOf(
        MultiRowRangeFilter.class,
        withKeysOnly.getFilter() instanceof FilterList l ? l.getFilters().get(0) : null,
        "the job's own scan is not changed");
  }
}

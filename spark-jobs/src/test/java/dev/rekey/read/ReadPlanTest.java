package dev.rekey.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.KeyRange;
import dev.rekey.rowkey.KeyRangePlanner;
import dev.rekey.testing.Layouts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ReadPlanTest {
  private static final long DAY = 86_400_000L;
  private static final long FROM = 1_764_374_400_000L; // 2025-11-29T00:00Z

  private static KeyRange range(String startHex, String stopHex) {
    return new KeyRange(Hex.parse(startHex), Hex.parse(stopHex));
  }

  @Test
  void aSaltedTimeFirstKeyIsOneRangePerBucket() {
    ReadPlan p = ReadPlan.window(Layouts.shipped("telemetry-v2"), FROM, FROM + DAY);
    assertEquals(ReadPlan.Pruning.KEY_RANGES, p.pruning());
    assertEquals(16, p.ranges().size());
    for (int b = 0; b < 16; b++) {
      KeyRange r = p.ranges().get(b);
      assertArrayEquals(Bytes.add(new byte[] {(byte) b}, Bytes.toBytes(FROM)), r.start());
      assertArrayEquals(Bytes.add(new byte[] {(byte) b}, Bytes.toBytes(FROM + DAY)), r.stop());
    }
    assertTrue(p.describe().startsWith("16 key ranges: time field ts leads the key"), p.describe());
  }

  @Test
  void anUnsaltedTimeFirstKeyIsOneRange() {
    ReadPlan p = ReadPlan.window(Layouts.shipped("telemetry-v1"), FROM, FROM + DAY);
    assertEquals(List.of(new KeyRange(Bytes.toBytes(FROM), Bytes.toBytes(FROM + DAY))), p.ranges());
  }

  @Test
  void timeAfterAHashPrefixIsNotInKeyOrder() {
    ReadPlan p = ReadPlan.window(Layouts.shipped("events-v2"), FROM, FROM + DAY);
    assertEquals(ReadPlan.Pruning.CELL_TIME, p.pruning());
    assertEquals(List.of(range("", "")), p.ranges());
    assertTrue(p.reason().contains("ordered by a hash of [userId]"), p.reason());
  }

  @Test
  void anEntityUnderASaltOverTheWholeKeyIsARangePerBucket() {
    ReadPlan p = ReadPlan.entity(Layouts.shipped("telemetry-v2"), Map.of("ts", FROM));
    assertEquals(16, p.ranges().size());
    assertTrue(p.reason().endsWith("(one key range per bucket)"), p.reason());
  }

  @Test
  void eachRegionReadsOnlyItsPartOfTheRanges() {
    ReadPlan p = ReadPlan.window(Layouts.shipped("telemetry-v2"), FROM, FROM + DAY);
    // a region per salt byte: the bucket's one range, whole
    assertEquals(List.of(p.ranges().get(3)), p.within(new byte[] {3}, new byte[] {4}));
    assertEquals(List.of(p.ranges().get(0)), p.within(new byte[0], new byte[] {1}));
    assertEquals(List.of(p.ranges().get(15)), p.within(new byte[] {15}, new byte[0]));
    // a region holding buckets 2 and 3 reads two ranges in one task
    assertEquals(
        List.of(p.ranges().get(2), p.ranges().get(3)), p.within(new byte[] {2}, new byte[] {4}));
    // a region boundary inside a bucket's range cuts it
    byte[] mid = Bytes.add(new byte[] {5}, Bytes.toBytes(FROM + DAY / 2));
    assertEquals(
        List.of(new KeyRange(p.ranges().get(5).start(), mid)), p.within(new byte[] {5}, mid));
    assertEquals(
        List.of(new KeyRange(mid, p.ranges().get(5).stop())), p.within(mid, new byte[] {6}));
  }

  @Test
  void aRegionOutsideTheWindowReadsNothing() {
    ReadPlan p = ReadPlan.window(Layouts.shipped("telemetry-v1"), FROM, FROM + DAY);
    assertEquals(
        List.of(),
        p.within(new byte[0], Bytes.toBytes(FROM)),
        "stop is exclusive, start inclusive");
    assertEquals(List.of(), p.within(Bytes.toBytes(FROM + DAY), new byte[0]));
    assertEquals(1, p.within(Bytes.toBytes(FROM + DAY - 1), new byte[0]).size());
  }

  @Test
  void anEntityIsOneRangeThroughItsHashPrefix() {
    KeyLayout events = Layouts.shipped("events-v2");
    Map<String, Object> alice = new LinkedHashMap<>();
    alice.put("userId", "alice");
    ReadPlan p = ReadPlan.entity(events, alice);
    assertEquals(List.of(KeyRangePlanner.entityRange(events, alice)), p.ranges());
    byte[] start = p.ranges().get(0).start();
    // prefix | "alice" | 0x00 .. prefix | "alice" | 0x01: user "alicex" is not in it
    assertEquals("616c69636500", Hex.of(start).substring(4));
    assertEquals("616c69636501", Hex.of(p.ranges().get(0).stop()).substring(4));
    assertTrue(p.describe().contains("entity userId=alice"), p.describe());
  }

  @Test
  void anEntityNeedsTheLeadingFields() {
    Map<String, Object> ts = Map.of("ts", 5L);
    assertThrows(
        IllegalArgumentException.class, () -> ReadPlan.entity(Layouts.shipped("events-v2"), ts));
  }

  @Test
  void keyRangesOfTwoPlansIntersect() {
    KeyLayout v1 = Layouts.shipped("telemetry-v1");
    ReadPlan day = ReadPlan.window(v1, FROM, FROM + DAY);
    ReadPlan hour = ReadPlan.window(v1, FROM + DAY - 3_600_000L, FROM + DAY + 3_600_000L);
    assertEquals(
        List.of(new KeyRange(Bytes.toBytes(FROM + DAY - 3_600_000L), Bytes.toBytes(FROM + DAY))),
        day.and(hour).ranges());
    ReadPlan cell = ReadPlan.window(Layouts.shipped("events-v2"), FROM, FROM + DAY);
    assertEquals(day.ranges(), day.and(cell).ranges());
    assertEquals(day.ranges(), cell.and(day).ranges());
  }

  @Test
  void keyRangesOfTwoWindowsJoinWithTheGapBetweenThemUnread() {
    KeyLayout v1 = Layouts.shipped("telemetry-v1");
    long h = 3_600_000L;
    ReadPlan a = ReadPlan.window(v1, FROM, FROM + h);
    ReadPlan b = ReadPlan.window(v1, FROM + 5 * h, FROM + 6 * h);
    assertEquals(
        List.of(
            new KeyRange(Bytes.toBytes(FROM), Bytes.toBytes(FROM + h)),
            new KeyRange(Bytes.toBytes(FROM + 5 * h), Bytes.toBytes(FROM + 6 * h))),
        b.or(a).ranges());
    KeyLayout v2 = Layouts.shipped("telemetry-v2");
    ReadPlan salted =
        ReadPlan.window(v2, FROM, FROM + h).or(ReadPlan.window(v2, FROM + 5 * h, FROM + 6 * h));
    assertEquals(2 * ReadPlan.window(v2, FROM, FROM + h).ranges().size(), salted.ranges().size());
    ReadPlan cell = ReadPlan.window(Layouts.shipped("events-v2"), FROM, FROM + h);
    assertEquals(ReadPlan.Pruning.CELL_TIME, a.or(cell).pruning(), "the broader plan");
    assertEquals(ReadPlan.Pruning.CELL_TIME, cell.or(a).pruning());
  }

  @Test
  void keysOfAnotherLayoutDoNotFitAndTheReadFallsBackToEveryKey() {
    KeyLayout v2 = Layouts.shipped("telemetry-v2");
    ReadPlan p = ReadPlan.window(v2, FROM, FROM + DAY);
    byte[] v2Key = v2.encode(Map.of("ts", FROM, "deviceId", new byte[16]));
    byte[] v1Key =
        Layouts.shipped("telemetry-v1").encode(Map.of("ts", FROM, "deviceId", new byte[16]));
    assertTrue(p.fits(v2Key));
    assertTrue(!p.fits(v1Key), "a legacy key in a salted layout: wrong salt byte");
    ReadPlan all = p.unpruned("the first row key does not decode");
    assertEquals(ReadPlan.Pruning.NONE, all.pruning());
    assertEquals("every key (the first row key does not decode)", all.describe());
    assertTrue(ReadPlan.all().fits(v1Key));
  }

  @Test
  void aSnapshotRegionOutsideTheRangesIsNotOpened() throws Exception {
    ReadPlan p = ReadPlan.window(Layouts.shipped("telemetry-v1"), FROM, FROM + DAY);
    // a live table's keys-only scan: the range filter inside a FilterList
    org.apache.hadoop.hbase.client.Scan scan =
        RegionReader.table(org.apache.hadoop.hbase.TableName.valueOf("t"))
            .plan(p)
            .keysOnly()
            .scan();
    List<KeyRange> ranges = KeyRangeSnapshotInputFormat.keyRanges(scan);
    assertEquals(p.ranges(), ranges);
    assertTrue(KeyRangeSnapshotInputFormat.overlaps(ranges, new byte[0], new byte[0]));
    assertTrue(!KeyRangeSnapshotInputFormat.overlaps(ranges, new byte[0], Bytes.toBytes(FROM)));
    assertTrue(
        !KeyRangeSnapshotInputFormat.overlaps(ranges, Bytes.toBytes(FROM + DAY), new byte[0]));
    assertTrue(
        KeyRangeSnapshotInputFormat.overlaps(
            ranges, Bytes.toBytes(FROM + 1), Bytes.toBytes(FROM + 2)));
    assertEquals(null, KeyRangeSnapshotInputFormat.keyRanges(RegionReader.snapshot("s").scan()));
  }

  @Test
  void mergeSortsAndJoinsOverlappingRanges() {
    List<KeyRange> in =
        new ArrayList<>(
            List.of(
                range("05", "07"),
                range("01", "03"),
                range("02", "04"),
                range("07", "08"),
                range("09", "09")));
    assertEquals(List.of(range("01", "04"), range("05", "08")), ReadPlan.merge(in));
    assertEquals(
        List.of(range("01", "")), ReadPlan.merge(List.of(range("03", ""), range("01", "04"))));
  }

  @Test
  void rowsScannedArePlacedInTheRegionOfEachPartitionsFirstKey() {
    ReadPlan p = ReadPlan.window(Layouts.shipped("telemetry-v2"), FROM, FROM + DAY);
    List<byte[]> starts = List.of(new byte[0], new byte[] {8});
    List<byte[]> ends = List.of(new byte[] {8}, new byte[0]);
    List<RegionScan.PartitionCount> counts =
        List.of(
            new RegionScan.PartitionCount(0, new byte[] {1, 2}, 10),
            new RegionScan.PartitionCount(1, new byte[] {8}, 7),
            new RegionScan.PartitionCount(
                1, new byte[] {8}, 7), // the same partition read by a second action
            new RegionScan.PartitionCount(2, new byte[] {9, 9}, 5),
            new RegionScan.PartitionCount(3, null, 0));
    List<RegionScan> scans = RegionScan.place(starts, ends, p, counts);
    assertEquals(10, scans.get(0).rowsScanned());
    assertEquals(12, scans.get(1).rowsScanned());
    assertEquals(8, scans.get(0).ranges().size());
    assertEquals(p.ranges().subList(8, 16), scans.get(1).ranges());
    assertEquals("08", scans.get(1).toMap().get("start"));
  }
}

package dev.rekey.jobs.backfill.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeWindow;
import dev.rekey.jobs.backfill.Accounting;
import dev.rekey.jobs.backfill.BackfillOptions;
import dev.rekey.jobs.backfill.write.PackedRow;
import dev.rekey.jobs.backfill.write.Rekeyer;
import dev.rekey.jobs.backfill.write.SerializedKeySort;
import dev.rekey.jobs.backfill.write.TargetPartitioner;
import dev.rekey.read.PackedCells;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.SplitPoints;
import dev.rekey.testing.Layouts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The backfill's pure parts: rekeying, layout fit, region lookup, partitioning, cell order,
 * options, accounting.
 */
@Tag("unit")
class BackfillPlanTest {

  static final byte[] DEVICE = new byte[16];

  static {
    Arrays.fill(DEVICE, (byte) 7);
  }

  @Test
  void rekeysTelemetryV1ToV2ByteForByte() {
    Rekeyer r = new Rekeyer(Layouts.shipped("telemetry-v1"), Layouts.shipped("telemetry-v2"));
    assertTrue(r.check().isEmpty());
    long ts = 1_764_374_400_000L;
    byte[] v1 = Bytes.add(Bytes.toBytes(ts), DEVICE);
    byte[] v2 = r.rekey(v1);
    assertArrayEquals(
        Layouts.shipped("telemetry-v2").encode(Map.of("ts", ts, "deviceId", DEVICE)), v2);
    // seed 002: salt = floorMod(Arrays.hashCode(ts || deviceId), 16)
    assertEquals(Math.floorMod(Arrays.hashCode(v1), 16), v2[0]);
    assertArrayEquals(v1, Arrays.copyOfRange(v2, 1, v2.length));
    // the time field travels with the key (counted per hour without decoding the new key again)
    assertEquals(ts, r.rekeyWithTime(v1).time());
    assertArrayEquals(v2, r.rekeyWithTime(v1).key());
  }

  @Test
  void undecodableKeysThrowWithAReason() {
    Rekeyer r = new Rekeyer(Layouts.shipped("telemetry-v1"), Layouts.shipped("telemetry-v2"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> r.rekey(Bytes.toBytes("short")));
    assertEquals(
        "Cannot decode key 73686f7274 with layout telemetry-v1: field 'ts' at offset 0: key too"
            + " short: long needs 8 bytes at offset 0 but only 5 remain",
        e.getMessage());
  }

  @Test
  void aTargetNeedingFieldsTheSourceLacksDoesNotFit() {
    assertTrue(
        new Rekeyer(Layouts.shipped("telemetry-v1"), Layouts.shipped("events-v2"))
            .check()
            .orElseThrow()
            .contains("needs field 'userId'"));
    KeyLayout shortId =
        KeyLayout.parse(
            "name: short-id\nprefix:\n  kind: none\nfields:\n  - name: ts\n    type: long\n"
                + "  - name: deviceId\n    type: bytes\n    length: 8\n",
            "short-id");
    assertTrue(
        new Rekeyer(Layouts.shipped("telemetry-v1"), shortId)
            .check()
            .orElseThrow()
            .contains("bytes(16)"));
  }

  @Test
  void regionLookupFollowsUnsignedStartKeys() {
    List<byte[]> starts = new ArrayList<>();
    starts.add(new byte[0]);
    starts.addAll(SplitPoints.salt(16));
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      names.add("r" + i);
    }
    RegionBoundaries b = new RegionBoundaries(starts, names);
    assertEquals(0, b.regionOf(new byte[0]));
    assertEquals(0, b.regionOf(new byte[] {0, 5}));
    assertEquals(1, b.regionOf(new byte[] {1}));
    assertEquals(15, b.regionOf(new byte[] {15, 0}));
    assertEquals(15, b.regionOf(new byte[] {(byte) 0xff}));
    assertArrayEquals(new byte[] {4}, b.end(3));
    assertEquals(0, b.end(15).length);
    RegionBoundaries back = RegionBoundaries.fromHex(b.startKeysHex(), b.names());
    assertEquals(7, back.regionOf(new byte[] {7, 1, 2}));
    assertThrows(
        IllegalArgumentException.class,
        () -> new RegionBoundaries(List.of(new byte[] {1}), List.of("x")));
  }

  @Test
  void partitionsAreRegionTimesKAndFollowTheRowKey() {
    List<byte[]> starts = new ArrayList<>();
    starts.add(new byte[0]);
    starts.addAll(SplitPoints.salt(4));
    TargetPartitioner p =
        new TargetPartitioner(new RegionBoundaries(starts, List.of("a", "b", "c", "d")), 3);
    assertEquals(12, p.numPartitions());
    java.util.Set<Integer> used = new java.util.HashSet<>();
    for (int i = 0; i < 200; i++) {
      byte[] row = {(byte) (i % 4), (byte) i, 9};
      int pa = p.getPartition(row);
      assertEquals(pa, p.getPartition(row.clone()));
      assertEquals(i % 4, pa / 3, "partition = region x 3 + sub-partition");
      used.add(pa);
    }
    assertEquals(12, used.size(), "k sub-partitions per region are all used");
  }

  @Test
  void sortKeysCompareAsUnsignedBytesWordByWord() {
    // keys of 0-24 bytes over a small alphabet with bytes above 0x7f: equal words, a difference in
    // any byte of a word, prefixes of one another and the byte-by-byte tail
    java.util.Random random = new java.util.Random(7);
    byte[] alphabet = {0, 1, 0x7f, (byte) 0x80, (byte) 0xff};
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      byte[] k = new byte[random.nextInt(25)];
      for (int j = 0; j < k.length; j++) {
        k[j] = alphabet[random.nextInt(alphabet.length)];
      }
      keys.add(k);
    }
    for (byte[] a : keys) {
      for (byte[] b : keys) {
        int got =
            SerializedKeySort.compareKeys(
                a,
                org.apache.spark.unsafe.Platform.BYTE_ARRAY_OFFSET,
                a.length,
                b,
                org.apache.spark.unsafe.Platform.BYTE_ARRAY_OFFSET,
                b.length);
        assertEquals(
            Integer.signum(Arrays.compareUnsigned(a, b)),
            Integer.signum(got),
            Bytes.toStringBinary(a) + " vs " + Bytes.toStringBinary(b));
      }
    }
  }

  @Test
  void sortPrefixIsUnsignedAndPackedRowsRoundTrip() {
    assertTrue(
        Long.compareUnsigned(
                SerializedKeySort.prefix(Bytes.toBytes("r1")),
                SerializedKeySort.prefix(new byte[] {(byte) 0x80}))
            < 0,
        "unsigned: 'r' (0x72) before 0x80");
    assertEquals(
        SerializedKeySort.prefix(Bytes.toBytes("abcdefgh")),
        SerializedKeySort.prefix(Bytes.toBytes("abcdefghij")),
        "the first 8 bytes only: longer keys tie, and the sort compares them whole");
    assertTrue(
        Long.compareUnsigned(
                SerializedKeySort.prefix(Bytes.toBytes("ab")),
                SerializedKeySort.prefix(Bytes.toBytes("abc")))
            < 0);
    byte[] src = Bytes.toBytes("src");
    byte[] target = Bytes.toBytes("new-row");
    KeyValue s = new KeyValue(src, Bytes.toBytes("d"), Bytes.toBytes("s"), 7L, Bytes.toBytes("ok"));
    KeyValue v = new KeyValue(src, Bytes.toBytes("d"), Bytes.toBytes("v"), 7L, Bytes.toBytes(42L));
    byte[] packed = PackedRow.pack(src, target, 1764374400000L, new Cell[] {s, v});
    assertArrayEquals(src, PackedRow.sourceKey(packed));
    assertEquals(1764374400000L, PackedRow.time(packed));
    KeyValue[] back = PackedRow.cells(packed);
    assertEquals(2, back.length);
    // the source cells, each under the target key
    assertEquals(
        new KeyValue(target, Bytes.toBytes("d"), Bytes.toBytes("s"), 7L, Bytes.toBytes("ok")),
        back[0]);
    assertEquals(
        new KeyValue(target, Bytes.toBytes("d"), Bytes.toBytes("v"), 7L, Bytes.toBytes(42L)),
        back[1]);
    assertEquals(PackedCells.keyValueLength(target.length, v), back[1].getLength());
    assertEquals(7L, back[1].getTimestamp());
    assertArrayEquals(Bytes.toBytes(42L), org.apache.hadoop.hbase.CellUtil.cloneValue(back[1]));
  }

  private static BackfillOptions.Builder valid() {
    return BackfillOptions.builder()
        .sourceSnapshot("s")
        .sourceLayout(Layouts.shipped("telemetry-v1"))
        .targetTable("t")
        .targetLayout(Layouts.shipped("telemetry-v2"));
  }

  private static RekeyException usage(org.junit.jupiter.api.function.Executable e) {
    RekeyException r = assertThrows(RekeyException.class, e);
    assertEquals(2, r.exitCode(), r.getMessage());
    return r;
  }

  @Test
  void defaultsAreOneSplitPerRegionAndNoQuarantinedRow() {
    assertEquals(1, valid().build().splitsPerRegion());
    assertEquals(0, valid().build().maxQuarantined());
  }

  @Test
  void theDefaultStagingDirIsNamedAfterTheTargetWithoutItsNamespaceColon() {
    assertEquals("/x/backfill-ns_t", valid().targetTable("ns:t").build().stagingOr("/x"));
  }

  @Test
  void aMissingSourceSnapshotIsAUsageErrorNamingTheOption() {
    assertEquals(
        "Cannot backfill: --source-snapshot is required",
        usage(() -> BackfillOptions.builder().build()).getMessage());
  }

  @Test
  void splitsPerRegionOutsideItsRangeIsAUsageError() {
    assertEquals(
        "Cannot backfill t: --splits-per-region must be in 1..1024, got 0",
        usage(() -> valid().splitsPerRegion(0).build()).getMessage());
  }

  @Test
  void aTimeRangeThatEndsBeforeItStartsIsAUsageError() {
    assertEquals(
        "Invalid time range: --from 1970-01-01T00:00:00.010Z is not before --to"
            + " 1970-01-01T00:00:00.005Z (give a --to after --from; --to is exclusive)",
        usage(() -> valid().cellTime(new TimeWindow(10L, 5L)).build()).getMessage());
  }

  @Test
  void dryRunAndResumeTogetherAreAUsageError() {
    assertEquals(
        "Cannot backfill t: --dry-run and --resume exclude each other",
        usage(() -> valid().dryRun(true).resume(true).build()).getMessage());
  }

  @Test
  void accountingAndSkew() {
    Accounting a = new Accounting(10, 7, 2, 1);
    assertTrue(a.balances());
    assertEquals("read 10 = written 7 + quarantined 2 + filtered 1", a.line());
    assertTrue(new Accounting(10, 7, 2, 0).line().contains("DOES NOT BALANCE"));
    Skew s = Skew.of(List.of(10L, 10L, 10L, 30L));
    assertEquals(30, s.maxRows());
    assertEquals(15.0, s.meanRows(), 1e-9);
    assertEquals(2.0, s.ratio(), 1e-9);
  }
}

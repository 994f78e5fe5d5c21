package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.jobs.common.RekeyException;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.SplitPoints;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The backfill's pure parts: rekeying, layout fit, region lookup, partitioning, cell order, options, accounting. */
@Tag("unit")
class BackfillPlanTest {
  static KeyLayout layout(String name) {
    return KeyLayout.load(Path.of(System.getProperty("rekey.home", "..")).resolve("conf/layouts/" + name + ".yaml"));
  }

  static final byte[] DEVICE = new byte[16];

  static {
    Arrays.fill(DEVICE, (byte) 7);
  }

  @Test
  void rekeysTelemetryV1ToV2ByteForByte() {
    Rekeyer r = new Rekeyer(layout("telemetry-v1"), layout("telemetry-v2"));
    assertTrue(r.check().isEmpty());
    long ts = 1_764_374_400_000L;
    byte[] v1 = Bytes.add(Bytes.toBytes(ts), DEVICE);
    byte[] v2 = r.rekey(v1);
    assertArrayEquals(layout("telemetry-v2").encode(Map.of("ts", ts, "deviceId", DEVICE)), v2);
    // seed 002: salt = floorMod(Arrays.hashCode(ts || deviceId), 16)
    assertEquals(Math.floorMod(Arrays.hashCode(v1), 16), v2[0]);
    assertArrayEquals(v1, Arrays.copyOfRange(v2, 1, v2.length));
  }

  @Test
  void undecodableKeysThrowWithAReason() {
    Rekeyer r = new Rekeyer(layout("telemetry-v1"), layout("telemetry-v2"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.rekey(Bytes.toBytes("short")));
    assertFalse(e.getMessage().isBlank());
  }

  @Test
  void aTargetNeedingFieldsTheSourceLacksDoesNotFit() {
    assertTrue(new Rekeyer(layout("telemetry-v1"), layout("events-v2")).check().orElseThrow().contains("needs field 'userId'"));
    KeyLayout shortId = KeyLayout.parse("name: short-id\nprefix:\n  kind: none\nfields:\n  - name: ts\n    type: long\n"
        + "  - name: deviceId\n    type: bytes\n    length: 8\n", "short-id");
    assertTrue(new Rekeyer(layout("telemetry-v1"), shortId).check().orElseThrow().contains("bytes(16)"));
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
    assertThrows(IllegalArgumentException.class, () -> new RegionBoundaries(List.of(new byte[] {1}), List.of("x")));
  }

  @Test
  void partitionsAreRegionTimesKAndARowStaysInOnePartition() {
    List<byte[]> starts = new ArrayList<>();
    starts.add(new byte[0]);
    starts.addAll(SplitPoints.salt(4));
    TargetPartitioner p = new TargetPartitioner(new RegionBoundaries(starts, List.of("a", "b", "c", "d")), 3);
    assertEquals(12, p.numPartitions());
    for (int i = 0; i < 200; i++) {
      byte[] row = {(byte) (i % 4), (byte) i, 9};
      byte[] a = new KeyValue(row, Bytes.toBytes("d"), Bytes.toBytes("v"), 5L, Bytes.toBytes(i)).getBuffer();
      byte[] b = new KeyValue(row, Bytes.toBytes("d"), Bytes.toBytes("s"), 1L, Bytes.toBytes("x")).getBuffer();
      int pa = p.getPartition(a);
      assertEquals(pa, p.getPartition(b));
      assertEquals(i % 4, p.regionOf(pa));
    }
  }

  @Test
  void cellOrderIsHBaseOrderWithNewestTimestampFirst() {
    CellOrder o = new CellOrder();
    byte[] r1v5 = new KeyValue(Bytes.toBytes("r1"), Bytes.toBytes("d"), Bytes.toBytes("v"), 5L, new byte[0]).getBuffer();
    byte[] r1v9 = new KeyValue(Bytes.toBytes("r1"), Bytes.toBytes("d"), Bytes.toBytes("v"), 9L, new byte[0]).getBuffer();
    byte[] r1s1 = new KeyValue(Bytes.toBytes("r1"), Bytes.toBytes("d"), Bytes.toBytes("s"), 1L, new byte[0]).getBuffer();
    byte[] r2 = new KeyValue(new byte[] {(byte) 0x80}, Bytes.toBytes("d"), Bytes.toBytes("a"), 1L, new byte[0]).getBuffer();
    assertTrue(o.compare(r1v9, r1v5) < 0, "newer first");
    assertTrue(o.compare(r1s1, r1v9) < 0, "qualifier s before v");
    assertTrue(o.compare(r1v5, r2) < 0, "rows unsigned: 'r' (0x72) before 0x80");
  }

  @Test
  void optionsAreValidatedWithTheOptionName() {
    BackfillOptions.Builder ok = BackfillOptions.builder().sourceSnapshot("s").sourceLayout(layout("telemetry-v1"))
        .targetTable("t").targetLayout(layout("telemetry-v2"));
    assertEquals(1, ok.build().splitsPerRegion());
    assertEquals(0, ok.build().maxQuarantined());
    assertEquals("/x/backfill-ns_t", BackfillOptions.builder().sourceSnapshot("s").sourceLayout(layout("telemetry-v1"))
        .targetTable("ns:t").targetLayout(layout("telemetry-v2")).build().stagingOr("/x"));
    RekeyException e = assertThrows(RekeyException.class, () -> BackfillOptions.builder().build());
    assertTrue(e.getMessage().contains("--source-snapshot is required"), e.getMessage());
    assertEquals(2, e.exitCode());
    e = assertThrows(RekeyException.class, () -> ok.splitsPerRegion(0).build());
    assertTrue(e.getMessage().contains("--splits-per-region"), e.getMessage());
    ok.splitsPerRegion(1);
    e = assertThrows(RekeyException.class, () -> ok.timeRange(10L, 5L).build());
    assertTrue(e.getMessage().contains("--from 10 must be before --to 5"), e.getMessage());
    ok.timeRange(null, null);
    e = assertThrows(RekeyException.class, () -> ok.dryRun(true).resume(true).build());
    assertTrue(e.getMessage().contains("--dry-run and --resume"), e.getMessage());
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

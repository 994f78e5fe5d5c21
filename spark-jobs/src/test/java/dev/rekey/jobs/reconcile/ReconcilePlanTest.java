package dev.rekey.jobs.reconcile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.DecodedRow;
import dev.rekey.common.RekeyException;
import dev.rekey.common.RowDecoder;
import dev.rekey.common.TimeWindow;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Options, time parsing, bucketing and the natural key: pure, no Spark, no HBase. */
@Tag("unit")
class ReconcilePlanTest {
  static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  static final KeyLayout V2 = Layouts.shipped("telemetry-v2");
  static final long DAY = Instant.parse("2026-11-29T00:00:00Z").toEpochMilli();

  static ReconcileOptions.Builder base() {
    return ReconcileOptions.builder()
        .old(SideSpec.table("old", "t1", V1))
        .neu(SideSpec.table("new", "t2", V2))
        .from("2026-11-29T00:00:00Z")
        .to("2026-11-30T00:00:00Z")
        .bucket("1h");
  }

  @Test
  void bucketsCoverTheRangeIncludingAShortLastOne() {
    TimeBuckets b = new TimeBuckets(new TimeWindow(DAY, DAY + 24 * 3_600_000L), 3_600_000L);
    assertEquals(24, b.count());
    assertEquals(DAY, b.start(0));
    assertEquals(DAY + 3_600_000L, b.end(0));
    assertEquals(0, b.indexOf(DAY));
    assertEquals(0, b.indexOf(DAY + 3_599_999L));
    assertEquals(1, b.indexOf(DAY + 3_600_000L));
    assertEquals(23, b.indexOf(DAY + 24 * 3_600_000L - 1));
    assertEquals(-1, b.indexOf(DAY + 24 * 3_600_000L));
    assertEquals(-1, b.indexOf(DAY - 1));
    assertEquals(24, b.starts().size());

    TimeBuckets ragged = new TimeBuckets(new TimeWindow(0, 2_500), 1_000);
    assertEquals(3, ragged.count());
    assertEquals(2_000, ragged.start(2));
    assertEquals(2_500, ragged.end(2));
    assertEquals(2, ragged.indexOf(2_499));
    assertEquals(1, new TimeBuckets(new TimeWindow(0, 1), 1_000).count());
  }

  @Test
  void emptyRangeAndTooManyBucketsAreRefused() {
    RuntimeException e =
        assertThrows(
            RekeyException.class,
            () -> base().from("2026-11-29T00:00:00Z").to("2026-11-29T00:00:00Z").build());
    assertEquals(
        "Invalid time range: --from 2026-11-29T00:00:00Z is not before --to 2026-11-29T00:00:00Z"
            + " (give a --to after --from; --to is exclusive)",
        e.getMessage());
    assertThrows(RekeyException.class, () -> base().from("2026-11-30").to("2026-11-29").build());
    e = assertThrows(RekeyException.class, () -> base().bucket("1ms").build());
    assertTrue(e.getMessage().startsWith("Too many buckets: 86400000 buckets"), e.getMessage());
  }

  @Test
  void optionsDefaultToTheLayoutsTimeField() {
    ReconcileOptions o = base().build();
    assertEquals("key:ts", o.time().describe());
    assertEquals(24, o.buckets().count());
    assertEquals(20, o.samples());
    assertFalse(o.digest());
    assertEquals(List.of("deviceId", "ts"), o.naturalKey().fieldNames());
    assertTrue(base().time("cell").build().time().cell());
  }

  @Test
  void badTimeFieldAndSidesAreExplained() {
    RuntimeException e =
        assertThrows(RekeyException.class, () -> base().time("key:deviceId").build());
    assertEquals(
        "Invalid --time key:deviceId: field 'deviceId' of layout telemetry-v1 is bytes, not an integer of"
            + " epoch millis",
        e.getMessage());
    e = assertThrows(RekeyException.class, () -> base().time("key:when").build());
    assertTrue(
        e.getMessage()
            .startsWith("Invalid --time key:when: layout telemetry-v1 has no field 'when'"),
        e.getMessage());
    e = assertThrows(RekeyException.class, () -> base().time("wallclock").build());
    assertEquals("Invalid --time 'wallclock': expected key:FIELD or cell", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> SideSpec.table("new", "t", null));
    assertTrue(e.getMessage().startsWith("--new-layout is required"), e.getMessage());
    e = assertThrows(RekeyException.class, () -> base().samples(-1).build());
    assertEquals("--samples must be 0 or more (got -1)", e.getMessage());
  }

  @Test
  void layoutsWithDifferentNaturalKeysAreRefused() {
    KeyLayout events = Layouts.shipped("events-v2");
    RuntimeException e =
        assertThrows(
            RekeyException.class,
            () -> base().neu(SideSpec.table("new", "t2", events)).time("cell").build());
    assertEquals(
        "Cannot reconcile: layouts telemetry-v1 and events-v2 do not have the same natural key (old fields"
            + " [deviceId:bytes, ts:integer], new fields [ts:integer, userId:string]); reconcile matches rows by the fields"
            + " both keys encode, so both layouts need the same field names and kinds (string, bytes, integer)",
        e.getMessage());
  }

  @Test
  void naturalKeyIsTheSameBytesWhateverTheLayoutAndFieldOrder() {
    KeyLayout reordered =
        KeyLayout.parse(
            "name: r\ntime: ts\nprefix:\n  kind: none\nfields:\n"
                + "  - name: deviceId\n    type: bytes\n    length: 16\n  - name: ts\n    type: long\n    signed: true\n",
            "r");
    byte[] dev = new byte[16];
    dev[3] = 7;
    Map<String, Object> values = Map.of("ts", DAY, "deviceId", dev);
    NaturalKey k1 = NaturalKey.common(V1, V2);
    NaturalKey k2 = NaturalKey.common(V2, reordered);
    byte[] viaV1 = encode(k1, V1, V1.decode(V1.encode(values)).fields());
    byte[] viaV2 = encode(k1, V2, V2.decode(V2.encode(values)).fields());
    byte[] viaR = encode(k2, reordered, reordered.decode(reordered.encode(values)).fields());
    assertArrayEquals(viaV1, viaV2);
    assertArrayEquals(viaV1, viaR);
    // ints and longs of the same value agree; a different value or device does not
    assertArrayEquals(
        encode(k1, V1, Map.of("ts", 5, "deviceId", dev)),
        encode(k1, V1, Map.of("ts", 5L, "deviceId", dev)));
    assertFalse(
        java.util.Arrays.equals(viaV1, encode(k1, V1, Map.of("ts", DAY + 1, "deviceId", dev))));
    assertEquals(
        Map.of("deviceId", "00000007000000000000000000000000", "ts", Long.toString(DAY)),
        NaturalKey.display(k1, values));
    assertThrows(
        IllegalArgumentException.class,
        () -> encode(k1, V1, Map.of("ts", "noon", "deviceId", dev)));
  }

  /** The natural key of decoded field values, as a read of layout {@code l} encodes them. */
  private static byte[] encode(NaturalKey k, KeyLayout l, Map<String, ?> values) {
    List<String> names = new RowDecoder(l).fieldNames();
    Object[] fields = new Object[names.size()];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = values.get(names.get(i));
    }
    return k.encoder(names).encode(new DecodedRow(new byte[0], fields, List.of()));
  }
}

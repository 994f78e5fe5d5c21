package dev.rekey.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.KeyRange;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What each layout shape can serve as natural-order ranges, and the reasons for what it cannot. */
@Tag("unit")
class ReadPlannerTest {
  private static final long T0 = 1_764_374_400_000L; // 2025-11-29T00:00Z
  private static final long HOUR = 3_600_000L;

  @Test
  void saltedWindowIsOneRangePerBucketAsTheLayoutComputesIt() {
    KeyLayout v2 = Layouts.shipped("telemetry-v2");
    ReadPlan p = ReadPlanner.plan(v2, ReadQuery.window(T0, T0 + HOUR));
    assertTrue(p.servable());
    assertEquals(1, p.prefixLength());
    List<KeyRange> expected = v2.timeWindowRanges(T0, T0 + HOUR);
    assertEquals(16, p.ranges().size());
    for (int b = 0; b < 16; b++) {
      assertEquals(b, p.ranges().get(b).bucket());
      assertEquals(expected.get(b), p.ranges().get(b).range());
    }
  }

  @Test
  void unsaltedWindowIsOneRange() {
    KeyLayout v1 = Layouts.shipped("telemetry-v1");
    ReadPlan p =
        ReadPlanner.plan(
            v1, ReadQuery.builder().window(T0, T0 + HOUR).limit(10).reverse(true).build());
    assertEquals(
        List.of(new BucketRange(-1, v1.timeWindowRanges(T0, T0 + HOUR).get(0))), p.ranges());
    assertEquals(10, p.limit());
    assertTrue(p.reverse());
  }

  @Test
  void saltedWholeTableIsEveryBucket() {
    ReadPlan p =
        ReadPlanner.plan(Layouts.shipped("telemetry-v2"), ReadQuery.builder().limit(5).build());
    assertEquals(16, p.ranges().size());
    assertEquals("00", Hex.of(p.ranges().get(0).range().start()));
    assertEquals("01", Hex.of(p.ranges().get(0).range().stop()));
    assertEquals("0f", Hex.of(p.ranges().get(15).range().start()));
    assertEquals("10", Hex.of(p.ranges().get(15).range().stop()));
  }

  @Test
  void hashPrefixServesOneEntityAndItsTimeWindow() {
    KeyLayout ev = Layouts.shipped("events-v2");
    ReadPlan user = ReadPlanner.plan(ev, ReadQuery.builder().where("userId", "alice").build());
    assertEquals(
        List.of(new BucketRange(-1, ev.entityRange(Map.of("userId", "alice")))), user.ranges());

    // reversed time: [enc(to - 1), next(enc(from))) after prefix|alice|0x00
    ReadPlan hour =
        ReadPlanner.plan(
            ev, ReadQuery.builder().where("userId", "alice").window(T0, T0 + HOUR).build());
    KeyRange r = hour.ranges().get(0).range();
    String base = Hex.of(ev.entityRange(Map.of("userId", "alice")).start());
    assertEquals(
        base + String.format("%016x", Long.MAX_VALUE - (T0 + HOUR - 1)), Hex.of(r.start()));
    // the keys of alice at T0 and at T0 + HOUR - 1 are inside, at T0 + HOUR and T0 - 1 outside
    assertTrue(r.contains(ev.encode(Map.of("userId", "alice", "ts", T0))));
    assertTrue(r.contains(ev.encode(Map.of("userId", "alice", "ts", T0 + HOUR - 1))));
    assertFalse(r.contains(ev.encode(Map.of("userId", "alice", "ts", T0 + HOUR))));
    assertFalse(r.contains(ev.encode(Map.of("userId", "alice", "ts", T0 - 1))));
  }

  @Test
  void refusalsSayWhy() {
    assertRefused(
        Layouts.shipped("events-v2"),
        ReadQuery.window(T0, T0 + HOUR),
        "ordered by a hash of [userId]",
        "give [userId]");
    assertRefused(
        Layouts.shipped("telemetry-v2"),
        ReadQuery.builder().where("deviceId", new byte[16]).build(),
        "must be the leading fields in key order [ts, deviceId]");
    assertRefused(
        Layouts.inline(
            "name: full\nprefix:\n  kind: full_hash\n  hash: md5\nfields:\n  - name: email\n"
                + "    type: string\n"),
        ReadQuery.builder().where("email", "a@b").build(),
        "full_hash key is the MD5",
        "get");
    assertRefused(
        Layouts.shipped("events-v2"),
        ReadQuery.builder().where("userId", "a\u0000b").build(),
        "field 'userId'");
    KeyLayout noTime =
        Layouts.inline("name: nt\nprefix:\n  kind: none\nfields:\n  - name: id\n    type: long\n");
    assertRefused(noTime, ReadQuery.window(0, 10), "no time field");
  }

  @Test
  void saltOverTheEntityReadsOneBucket() {
    KeyLayout byDevice =
        Layouts.inline(
            "name: by-device\ntime: ts\nprefix:\n  kind: salt\n  buckets: 8\n"
                + "  hash: murmur3_32\n  fields:\n    - deviceId\nfields:\n  - name: deviceId\n    type: string\n"
                + "  - name: ts\n    type: long\n");
    ReadPlan p =
        ReadPlanner.plan(
            byDevice, ReadQuery.builder().where("deviceId", "d1").window(T0, T0 + HOUR).build());
    assertEquals(1, p.ranges().size());
    int salt = byDevice.encode(Map.of("deviceId", "d1", "ts", T0))[0];
    assertEquals(salt, p.ranges().get(0).bucket());
    assertTrue(
        p.ranges()
            .get(0)
            .range()
            .contains(byDevice.encode(Map.of("deviceId", "d1", "ts", T0 + 5))));
  }

  @Test
  void emptyWindowReadsNothing() {
    assertTrue(
        ReadPlanner.plan(Layouts.shipped("telemetry-v2"), ReadQuery.window(T0, T0))
            .ranges()
            .isEmpty());
  }

  private static void assertRefused(KeyLayout layout, ReadQuery q, String... parts) {
    ReadPlan p = ReadPlanner.plan(layout, q);
    assertFalse(p.servable(), "servable: " + p);
    for (String part : parts) {
      assertTrue(p.refusal().contains(part), p.refusal());
    }
    assertTrue(p.refusal().startsWith("Cannot read layout " + layout.name()), p.refusal());
  }
}

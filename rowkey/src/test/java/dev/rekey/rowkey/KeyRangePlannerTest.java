package dev.rekey.rowkey;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The one key-range planner: what each layout shape serves as ranges (entities, windows, both, the
 * whole table), and the reasons for what it cannot.
 */
@Tag("unit")
class KeyRangePlannerTest {
  static final byte[] DEV = KeyLayoutTest.DEV;
  private static final long T0 = 1_764_374_400_000L; // 2025-11-29T00:00Z
  private static final long HOUR = 3_600_000L;

  @Test
  void entityRangeSeparatesAbFromAbc() {
    KeyLayout ev = TestPaths.shipped("events-v2");
    KeyRange ab = KeyRangePlanner.entityRange(ev, Map.of("userId", "ab"));
    byte[] abKey = ev.encode(Map.of("userId", "ab", "ts", 5L));
    byte[] abcKey = ev.encode(Map.of("userId", "abc", "ts", 5L));
    assertTrue(ab.contains(abKey));
    assertFalse(ab.contains(abcKey));
    byte[] start = ab.start();
    assertEquals(0, start[start.length - 1]);
    byte[] stop = ab.stop();
    assertEquals(1, stop[stop.length - 1]);
    // salted over the whole key: an entity is not one range
    assertThrows(
        IllegalArgumentException.class,
        () -> KeyRangePlanner.entityRange(TestPaths.shipped("telemetry-v2"), Map.of("ts", 1L)));
    // none prefix: any leading fields
    KeyRange r = KeyRangePlanner.entityRange(TestPaths.shipped("telemetry-v1"), Map.of("ts", 7L));
    assertTrue(
        r.contains(TestPaths.shipped("telemetry-v1").encode(Map.of("ts", 7L, "deviceId", DEV))));
    assertFalse(
        r.contains(TestPaths.shipped("telemetry-v1").encode(Map.of("ts", 8L, "deviceId", DEV))));
  }

  @Test
  void timeWindowOneRangePerSaltBucket() {
    KeyLayout v2 = TestPaths.shipped("telemetry-v2");
    long from = 1_700_000_000_000L;
    long to = from + 300_000;
    List<KeyRange> ranges = KeyRangePlanner.window(v2, from, to).keyRanges();
    assertEquals(16, ranges.size());
    for (int b = 0; b < 16; b++) {
      assertEquals(b, ranges.get(b).start()[0]);
    }
    java.util.Random r = new java.util.Random(3);
    for (int i = 0; i < 2000; i++) {
      long ts = from - 1000 + r.nextInt(302_000);
      byte[] dev = new byte[16];
      r.nextBytes(dev);
      byte[] key = v2.encode(Map.of("ts", ts, "deviceId", dev));
      long inRanges = ranges.stream().filter(x -> x.contains(key)).count();
      assertEquals(ts >= from && ts < to ? 1 : 0, inRanges, "ts " + ts);
    }
    KeyLayout v1 = TestPaths.shipped("telemetry-v1");
    assertEquals(1, KeyRangePlanner.window(v1, from, to).keyRanges().size());
    assertArrayEquals(
        java.util.Arrays.copyOf(v1.encode(Map.of("ts", from, "deviceId", new byte[16])), 8),
        KeyRangePlanner.window(v1, from, to).keyRanges().get(0).start());
    // time does not lead: no key ranges, and the reason (the jobs read every key instead)
    KeyRangePlan events = KeyRangePlanner.window(TestPaths.shipped("events-v2"), from, to);
    assertFalse(events.servable());
    assertTrue(events.reason().contains("ordered by a hash of [userId]"), events.reason());
  }

  @Test
  void reversedTimeLeadingWindow() {
    KeyLayout l =
        KeyLayout.parse(
            "name: r\ntime: t\nprefix:\n  kind: salt\n  buckets: 4\n  hash: murmur3_32\nfields:\n"
                + "  - name: t\n    type: reversed_long\n  - name: id\n    type: int\n",
            "r");
    List<KeyRange> ranges = KeyRangePlanner.window(l, 1000, 2000).keyRanges();
    assertEquals(4, ranges.size());
    for (long t = 900; t < 2100; t++) {
      byte[] k = l.encode(Map.of("t", t, "id", 1));
      long n = ranges.stream().filter(x -> x.contains(k)).count();
      assertEquals(t >= 1000 && t < 2000 ? 1 : 0, n, "t=" + t);
    }
  }

  @Test
  void saltedWholeTableIsEveryBucket() {
    KeyRangePlan p = KeyRangePlanner.plan(TestPaths.shipped("telemetry-v2"), Map.of());
    assertEquals(1, p.prefixLength());
    assertEquals(16, p.ranges().size());
    assertEquals("00", Hex.of(p.ranges().get(0).range().start()));
    assertEquals("01", Hex.of(p.ranges().get(0).range().stop()));
    assertEquals(15, p.ranges().get(15).bucket());
    assertEquals("0f", Hex.of(p.ranges().get(15).range().start()));
    assertEquals("10", Hex.of(p.ranges().get(15).range().stop()));
  }

  @Test
  void saltOverAWholeKeyGivesAnEntityInEveryBucket() {
    KeyLayout v2 = TestPaths.shipped("telemetry-v2");
    KeyRangePlan p = KeyRangePlanner.plan(v2, Map.of("ts", T0));
    assertEquals(16, p.ranges().size());
    byte[] key = v2.encode(Map.of("ts", T0, "deviceId", DEV));
    assertEquals(1, p.keyRanges().stream().filter(r -> r.contains(key)).count());
    assertFalse(
        p.keyRanges().stream()
            .anyMatch(r -> r.contains(v2.encode(Map.of("ts", T0 + 1, "deviceId", DEV)))));
  }

  @Test
  void hashPrefixServesOneEntityAndItsTimeWindow() {
    KeyLayout ev = TestPaths.shipped("events-v2");
    KeyRangePlan user = KeyRangePlanner.plan(ev, Map.of("userId", "alice"));
    assertEquals(2, user.prefixLength());
    assertEquals(
        List.of(new BucketRange(-1, KeyRangePlanner.entityRange(ev, Map.of("userId", "alice")))),
        user.ranges());

    // reversed time: [enc(to - 1), next(enc(from))) after prefix|alice|0x00
    KeyRangePlan hour =
        KeyRangePlanner.plan(
            ev, Map.of("userId", "alice"), new KeyRangePlanner.Window(T0, T0 + HOUR));
    KeyRange r = hour.ranges().get(0).range();
    String base = Hex.of(KeyRangePlanner.entityRange(ev, Map.of("userId", "alice")).start());
    assertEquals(
        base + String.format("%016x", Long.MAX_VALUE - (T0 + HOUR - 1)), Hex.of(r.start()));
    assertTrue(r.contains(ev.encode(Map.of("userId", "alice", "ts", T0))));
    assertTrue(r.contains(ev.encode(Map.of("userId", "alice", "ts", T0 + HOUR - 1))));
    assertFalse(r.contains(ev.encode(Map.of("userId", "alice", "ts", T0 + HOUR))));
    assertFalse(r.contains(ev.encode(Map.of("userId", "alice", "ts", T0 - 1))));
  }

  @Test
  void saltOverTheEntityReadsOneBucket() {
    KeyLayout byDevice =
        KeyLayout.parse(
            "name: by-device\ntime: ts\nprefix:\n  kind: salt\n  buckets: 8\n"
                + "  hash: murmur3_32\n  fields:\n    - deviceId\nfields:\n  - name: deviceId\n"
                + "    type: string\n  - name: ts\n    type: long\n",
            "by-device");
    KeyRangePlan p =
        KeyRangePlanner.plan(
            byDevice, Map.of("deviceId", "d1"), new KeyRangePlanner.Window(T0, T0 + HOUR));
    assertEquals(1, p.ranges().size());
    int salt = byDevice.encode(Map.of("deviceId", "d1", "ts", T0))[0];
    assertEquals(salt, p.ranges().get(0).bucket());
    assertTrue(
        p.ranges()
            .get(0)
            .range()
            .contains(byDevice.encode(Map.of("deviceId", "d1", "ts", T0 + 5))));
    // the entity alone is that bucket's one range, holding the window's
    KeyRange device = KeyRangePlanner.entityRange(byDevice, Map.of("deviceId", "d1"));
    assertEquals(salt, device.start()[0]);
    assertTrue(device.contains(p.keyRanges().get(0).start()));
  }

  @Test
  void emptyWindowReadsNothing() {
    KeyRangePlan p = KeyRangePlanner.window(TestPaths.shipped("telemetry-v2"), T0, T0);
    assertTrue(p.servable());
    assertTrue(p.ranges().isEmpty());
  }

  @Test
  void refusalsSayWhy() {
    assertRefused(
        KeyRangePlanner.window(TestPaths.shipped("events-v2"), T0, T0 + HOUR),
        "Cannot read layout events-v2 by time window: ",
        "ordered by a hash of [userId]",
        "give [userId]");
    assertRefused(
        KeyRangePlanner.plan(TestPaths.shipped("telemetry-v2"), Map.of("deviceId", DEV)),
        "must be the leading fields in key order [ts, deviceId]");
    assertRefused(
        KeyRangePlanner.plan(
            KeyLayout.parse(
                "name: full\nprefix:\n  kind: full_hash\n  hash: md5\nfields:\n  - name: email\n"
                    + "    type: string\n",
                "full"),
            Map.of("email", "a@b")),
        "full_hash key is the MD5",
        "get");
    assertRefused(
        KeyRangePlanner.plan(TestPaths.shipped("events-v2"), Map.of("userId", "a\u0000b")),
        "field 'userId'");
    KeyLayout noTime =
        KeyLayout.parse(
            "name: nt\nprefix:\n  kind: none\nfields:\n  - name: id\n    type: long\n", "nt");
    assertRefused(KeyRangePlanner.window(noTime, 0, 10), "no time field");
    assertRefused(
        KeyRangePlanner.window(TestPaths.shipped("telemetry-v1"), 10, 0),
        "starts at 10, after its end 0");
    assertRefused(
        KeyRangePlanner.window(TestPaths.shipped("telemetry-v1"), -5, 10), "not sign-flipped");
    // one range is asked for, and a salt over the whole key spreads the entity over the buckets
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> KeyRangePlanner.entityRange(TestPaths.shipped("telemetry-v2"), Map.of("ts", 1L)));
    assertTrue(e.getMessage().contains("in all 16 buckets"), e.getMessage());
  }

  @Test
  void aHotEntitysSubBucketsAreOneRangeEachMergedAfterTheSubBucketByte() {
    KeyLayout sb = KeyLayoutTest.subBucketed(); // prefix(device, sb) | device | sb (8) | ~ts
    KeyRangePlan p = KeyRangePlanner.plan(sb, Map.of("device", "hot"));
    assertTrue(p.servable(), p.toString());
    assertEquals(8, p.ranges().size());
    // the merge skips the prefix, "hot\0" and the sub-bucket byte: it compares the reversed time
    assertEquals(2 + 4 + 1, p.mergeOffset());
    assertEquals(2, p.prefixLength());
    java.util.Random r = new java.util.Random(11);
    for (int i = 0; i < 2000; i++) {
      long ts = T0 + r.nextInt(1_000_000_000);
      byte[] hot = sb.encode(Map.of("device", "hot", "ts", ts));
      assertEquals(1, p.keyRanges().stream().filter(x -> x.contains(hot)).count(), "ts " + ts);
      for (String other : List.of("ho", "hot2", "cold")) {
        byte[] k = sb.encode(Map.of("device", other, "ts", ts));
        assertEquals(0, p.keyRanges().stream().filter(x -> x.contains(k)).count(), other);
      }
    }
    // with a window: the same ranges narrowed to it inside each sub-bucket
    KeyRangePlan w =
        KeyRangePlanner.plan(
            sb, Map.of("device", "hot"), new KeyRangePlanner.Window(T0, T0 + HOUR));
    assertEquals(8, w.ranges().size());
    for (int i = 0; i < 2000; i++) {
      long ts = T0 - HOUR + r.nextInt((int) (3 * HOUR));
      byte[] hot = sb.encode(Map.of("device", "hot", "ts", ts));
      long in = w.keyRanges().stream().filter(x -> x.contains(hot)).count();
      assertEquals(ts >= T0 && ts < T0 + HOUR ? 1 : 0, in, "ts " + ts);
    }
    // one sub-bucket given: its one range
    KeyRangePlan one = KeyRangePlanner.plan(sb, Map.of("device", "hot", "sb", 3));
    assertEquals(1, one.ranges().size());
    assertEquals(p.ranges().get(3), one.ranges().get(0));
    assertEquals(2, one.mergeOffset());
    long ts3 =
        java.util.stream.LongStream.range(T0, T0 + 1000)
            .filter(t -> sb.fields().get(1).subBucket().bucketFor(t) == 3)
            .findFirst()
            .orElseThrow();
    assertTrue(one.keyRanges().get(0).contains(sb.encode(Map.of("device", "hot", "ts", ts3))));
    // no entity: the rows are in hash order, as for any hash prefix
    assertRefused(KeyRangePlanner.window(sb, T0, T0 + HOUR), "ordered by a hash of [device, sb]");
  }

  @Test
  void aLaterFixedWidthFieldIsMatchedOnEachRowOfAWindow() {
    KeyLayout v2 = TestPaths.shipped("telemetry-v2"); // salt | ts | deviceId
    KeyRangePlan p =
        KeyRangePlanner.plan(
            v2, Map.of("deviceId", DEV), new KeyRangePlanner.Window(T0, T0 + HOUR));
    assertTrue(p.servable(), p.toString());
    assertEquals(KeyRangePlanner.window(v2, T0, T0 + HOUR).ranges(), p.ranges());
    assertEquals(1, p.matches().size());
    FieldMatch m = p.matches().get(0);
    assertEquals(1 + 8, m.offset());
    assertArrayEquals(DEV, m.value());
    assertTrue(m.matches(v2.encode(Map.of("ts", T0 + 5, "deviceId", DEV))));
    byte[] other = DEV.clone();
    other[15] ^= 1;
    assertFalse(m.matches(v2.encode(Map.of("ts", T0 + 5, "deviceId", other))));
    assertTrue(KeyRangePlanner.window(v2, T0, T0 + HOUR).matches().isEmpty());
    // without a window the match would be a whole-table read: refused, saying how to get one
    assertRefused(KeyRangePlanner.plan(v2, Map.of("deviceId", DEV)), "inside a time window");
    // a field after a variable-length one has no fixed offset
    KeyLayout stringFirst =
        KeyLayout.parse(
            """
            name: sf
            time: ts
            prefix:
              kind: none
            fields:
              - name: ts
                type: long
              - name: site
                type: string
              - name: count
                type: int
            """,
            "sf");
    assertRefused(
        KeyRangePlanner.plan(
            stringFirst, Map.of("count", 3), new KeyRangePlanner.Window(T0, T0 + 1)),
        "field 'count' is not",
        "fixed offset");
    assertRefused(
        KeyRangePlanner.plan(
            stringFirst, Map.of("site", "a"), new KeyRangePlanner.Window(T0, T0 + 1)),
        "field 'site' is not");
    assertTrue(
        KeyRangePlanner.plan(v2, Map.of("deviceId", DEV), new KeyRangePlanner.Window(T0, T0))
            .ranges()
            .isEmpty());
  }

  private static void assertRefused(KeyRangePlan p, String... parts) {
    assertFalse(p.servable(), "servable: " + p);
    String refusal = p.refusal().orElseThrow();
    for (String part : parts) {
      assertTrue(refusal.contains(part), refusal);
    }
    assertTrue(refusal.startsWith("Cannot read layout "), refusal);
    assertTrue(p.ranges().isEmpty());
  }
}

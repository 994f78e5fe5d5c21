package dev.rekey.rowkey;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("unit")
class KeyLayoutTest {
  static final byte[] DEV = Hex.parse("00112233445566778899aabbccddeeff");

  @Test
  void shippedLayoutsDeclareTheirShape() {
    KeyLayout ev = TestPaths.shipped("events-v2");
    assertEquals("events-v2", ev.name());
    assertEquals(PrefixSpec.Kind.HASH_PREFIX, ev.prefix().kind());
    assertEquals(2, ev.prefix().bytes());
    assertEquals(HashFunction.MD5, ev.prefix().hash());
    assertEquals("ts", ev.timeField().orElseThrow());
    assertEquals(FieldType.REVERSED_LONG, ev.fields().get(1).type());
    KeyLayout v2 = TestPaths.shipped("telemetry-v2");
    assertEquals(16, v2.prefix().buckets());
    assertEquals(HashFunction.JAVA_ARRAYS_HASHCODE, v2.prefix().hash());
    assertEquals(16, v2.fields().get(1).length());
    assertFalse(v2.fields().get(0).signFlip());
    assertEquals(PrefixSpec.Kind.NONE, TestPaths.shipped("telemetry-v1").prefix().kind());
  }

  @Test
  void anUnknownKeyInAFileNamesTheFileAndTheKey(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("bad.yaml");
    Files.writeString(
        f,
        "name: bad\nprefix:\n  kind: salt\n  buckets: 4\n  hash: crc32\n  bucket: 3\nfields:\n  - name: a\n    type: long\n");
    LayoutException e = assertThrows(LayoutException.class, () -> KeyLayout.load(f));
    assertEquals(
        "Invalid layout "
            + f
            + ": prefix: unknown key 'bucket' (allowed: buckets, bytes, fields, hash, kind)",
        e.getMessage());
  }

  @Test
  void aMissingFileIsNamed(@TempDir Path dir) {
    Path f = dir.resolve("nope.yaml");
    LayoutException e = assertThrows(LayoutException.class, () -> KeyLayout.load(f));
    assertEquals(
        "Cannot read layout " + f + ": no such file (the shipped ones are in conf/layouts)",
        e.getMessage());
  }

  @Test
  void aDuplicateKeyNamesTheSource() {
    LayoutException e =
        assertThrows(
            LayoutException.class, () -> KeyLayout.parse("name: a\nname: b\n", "dup.yaml"));
    assertEquals("Cannot read layout dup.yaml: line 2: duplicate key 'name'", e.getMessage());
  }

  @Test
  void encodeErrorsNameTheField() {
    KeyLayout v2 = TestPaths.shipped("telemetry-v2");
    KeyEncodeException e =
        assertThrows(
            KeyEncodeException.class, () -> v2.encode(Map.of("ts", 1L, "deviceId", new byte[3])));
    assertEquals("deviceId", e.field());
    assertTrue(e.getMessage().contains("wrong length"));
    KeyEncodeException t =
        assertThrows(
            KeyEncodeException.class, () -> v2.encode(Map.of("ts", "soon", "deviceId", DEV)));
    assertEquals("ts", t.field());
  }

  @Test
  void valuesInKeyOrderEncodeAsTheMapDoes() {
    // the sub-bucket vector layout: hash prefix over (device, derived sub-bucket), reversed time
    // last
    KeyLayout sb =
        KeyLayout.parse(
            """
        name: sb
        time: ts
        prefix:
          kind: hash_prefix
          hash: murmur3_32
          bytes: 2
          fields:
            - device
            - sb
        fields:
          - name: device
            type: string
          - name: sb
            type: sub_bucket
            from: ts
            buckets: 8
            hash: crc32
          - name: ts
            type: reversed_long
        """,
            "sb");
    assertEquals(List.of("device", "sb", "ts"), sb.fieldNames());
    assertEquals(2, sb.fieldIndex("ts"));
    assertEquals(-1, sb.fieldIndex("nope"));
    byte[] key = sb.encode(new Object[] {"hot", null, 1700000000000L});
    assertEquals(
        "c4ee686f7400037ffffe74301a97ff", Hex.of(key)); // the pinned vector "hot device t0"
    assertArrayEquals(sb.encode(Map.of("device", "hot", "ts", 1700000000000L)), key);
    DecodedKey d = sb.decode(key);
    assertEquals("hot", d.get(0));
    assertEquals(3, d.get(1));
    assertEquals(d.get("ts"), d.get(2));
    assertArrayEquals(key, sb.encode(new Object[] {d.get(0), d.get(1), d.get(2)}));
    KeyEncodeException wrongBucket =
        assertThrows(
            KeyEncodeException.class, () -> sb.encode(new Object[] {"hot", 4, 1700000000000L}));
    assertEquals("sb", wrongBucket.field());
    KeyEncodeException missing =
        assertThrows(KeyEncodeException.class, () -> sb.encode(new Object[] {null, null, 1L}));
    assertEquals("device", missing.field());
    assertThrows(IllegalArgumentException.class, () -> sb.encode(new Object[] {"hot", 1L}));
  }

  @Test
  void fullHashRefusesDecodeWithReason() {
    KeyLayout l =
        KeyLayout.parse(
            "name: f\nprefix:\n  kind: full_hash\n  hash: md5\nfields:\n  - name: id\n    type: string\n",
            "f");
    assertFalse(l.decodable());
    byte[] k = l.encode(Map.of("id", "x"));
    assertEquals(16, k.length);
    KeyDecodeException e = assertThrows(KeyDecodeException.class, () -> l.decode(k));
    assertTrue(e.reason().contains("not reversible"));
    LayoutException trunc =
        assertThrows(
            LayoutException.class,
            () ->
                KeyLayout.parse(
                    "name: f\nprefix:\n  kind: full_hash\n  hash: crc32\nfields:\n  - name: id\n    type: string\n",
                    "f.yaml"));
    assertTrue(trunc.getMessage().contains("77,000"));
  }

  @Test
  void aDamagedPrefixIsRefusedRightAfterAGoodKeyOfTheSameEntity() {
    // the prefix check remembers the last entity's hash (keys come in entity order): a key of the
    // same entity with a wrong prefix must still fail, the next good key still pass
    KeyLayout ev = TestPaths.shipped("events-v2");
    byte[] good = ev.encode(Map.of("userId", "alice", "ts", 5L));
    byte[] next = ev.encode(Map.of("userId", "alice", "ts", 6L));
    byte[] damaged = next.clone();
    damaged[0] ^= 0x01;
    ev.check(good);
    assertThrows(KeyDecodeException.class, () -> ev.check(damaged));
    assertThrows(KeyDecodeException.class, () -> ev.decode(damaged));
    ev.check(next);
    assertEquals("alice", ev.decode(next).get("userId"));
    byte[] bob = ev.encode(Map.of("userId", "bob", "ts", 6L));
    byte[] bobDamaged = bob.clone();
    bobDamaged[1] ^= 0x01;
    assertThrows(KeyDecodeException.class, () -> ev.check(bobDamaged));
    ev.check(bob);
  }

  @Test
  void entityRangeSeparatesAbFromAbc() {
    KeyLayout ev = TestPaths.shipped("events-v2");
    KeyRange ab = ev.entityRange(Map.of("userId", "ab"));
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
        () -> TestPaths.shipped("telemetry-v2").entityRange(Map.of("ts", 1L)));
    // none prefix: any leading fields
    KeyRange r = TestPaths.shipped("telemetry-v1").entityRange(Map.of("ts", 7L));
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
    List<KeyRange> ranges = v2.timeWindowRanges(from, to);
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
    assertEquals(1, v1.timeWindowRanges(from, to).size());
    assertArrayEquals(
        java.util.Arrays.copyOf(v1.encode(Map.of("ts", from, "deviceId", new byte[16])), 8),
        v1.timeWindowRanges(from, to).get(0).start());
    // time does not lead: the whole table
    KeyRange all = TestPaths.shipped("events-v2").timeWindowRanges(from, to).get(0);
    assertEquals(0, all.start().length);
    assertEquals(0, all.stop().length);
  }

  @Test
  void reversedTimeLeadingWindow() {
    KeyLayout l =
        KeyLayout.parse(
            "name: r\ntime: t\nprefix:\n  kind: salt\n  buckets: 4\n  hash: murmur3_32\nfields:\n"
                + "  - name: t\n    type: reversed_long\n  - name: id\n    type: int\n",
            "r");
    List<KeyRange> ranges = l.timeWindowRanges(1000, 2000);
    assertEquals(4, ranges.size());
    for (long t = 900; t < 2100; t++) {
      byte[] k = l.encode(Map.of("t", t, "id", 1));
      long n = ranges.stream().filter(x -> x.contains(k)).count();
      assertEquals(t >= 1000 && t < 2000 ? 1 : 0, n, "t=" + t);
    }
  }

  @Test
  void serializable() throws Exception {
    KeyLayout v2 = TestPaths.shipped("telemetry-v2");
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (ObjectOutputStream o = new ObjectOutputStream(bos)) {
      o.writeObject(v2);
    }
    KeyLayout back =
        (KeyLayout) new ObjectInputStream(new ByteArrayInputStream(bos.toByteArray())).readObject();
    Map<String, Object> v = Map.of("ts", 123L, "deviceId", DEV);
    assertArrayEquals(v2.encode(v), back.encode(v));
  }

  @Test
  void fieldValuesParseAndFormat() {
    KeyLayout v2 = TestPaths.shipped("telemetry-v2");
    Map<String, Object> typed =
        FieldValues.parse(
            v2, Map.of("ts", "1700000000000", "deviceId", "00112233445566778899AABBCCDDEEFF"));
    assertEquals(1_700_000_000_000L, typed.get("ts"));
    assertArrayEquals(DEV, (byte[]) typed.get("deviceId"));
    assertEquals(
        Map.of("ts", "1700000000000", "deviceId", "00112233445566778899aabbccddeeff"),
        FieldValues.format(v2, typed));
    KeyEncodeException e =
        assertThrows(KeyEncodeException.class, () -> FieldValues.parse(v2, Map.of("ts", "x")));
    assertEquals("ts", e.field());
    assertTrue(e.getMessage().contains("field 'ts'"));
    KeyEncodeException h =
        assertThrows(
            KeyEncodeException.class, () -> FieldValues.parse(v2, Map.of("deviceId", "0g")));
    assertTrue(h.getMessage().contains("field 'deviceId'") && h.getMessage().contains("hex"));
    KeyEncodeException u =
        assertThrows(KeyEncodeException.class, () -> FieldValues.parse(v2, Map.of("device", "00")));
    assertTrue(u.getMessage().contains("unknown field 'device'"));
  }
}

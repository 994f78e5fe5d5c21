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
  /**
   * The sub-bucket vector layout (vectors/sub-bucket.json): hash prefix over (device, derived
   * sub-bucket), reversed time last.
   */
  static KeyLayout subBucketed() {
    Path file = TestPaths.repoRoot().resolve("rowkey/src/main/resources/vectors/sub-bucket.json");
    return VectorChecker.layoutOf(VectorChecker.readJson(file), file, TestPaths.repoRoot());
  }

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
    KeyLayout sb = subBucketed();
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

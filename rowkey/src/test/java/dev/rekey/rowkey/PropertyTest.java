package dev.rekey.rowkey;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Properties over many seeded random inputs: order, round trip, salt range. */
@Tag("unit")
class PropertyTest {
  static final int ITER = 5_000;

  static KeyLayout single(String fieldYaml) {
    return KeyLayout.parse(
        "name: p\nprefix:\n  kind: none\nfields:\n  - name: v\n" + fieldYaml, "prop");
  }

  static <T> void assertOrderPreserved(KeyLayout layout, Supplier<T> gen, Comparator<T> natural) {
    List<T> values = new ArrayList<>();
    for (int i = 0; i < ITER; i++) {
      values.add(gen.get());
    }
    Function<T, byte[]> enc = v -> layout.encode(Map.of("v", v));
    List<T> byValue = new ArrayList<>(values);
    byValue.sort(natural);
    List<T> byKey = new ArrayList<>(values);
    byKey.sort((a, b) -> Arrays.compareUnsigned(enc.apply(a), enc.apply(b)));
    for (int i = 0; i < values.size(); i++) {
      assertEquals(0, natural.compare(byValue.get(i), byKey.get(i)), layout.fields() + " at " + i);
    }
  }

  static long edgeLong(Random r) {
    return edge(r, Long.MIN_VALUE, Long.MAX_VALUE, r::nextLong);
  }

  static int edgeInt(Random r) {
    return (int) edge(r, Integer.MIN_VALUE, Integer.MAX_VALUE, r::nextInt);
  }

  /** Near {@code min}, near {@code max}, near zero, or {@code any} value: where codecs break. */
  private static long edge(Random r, long min, long max, java.util.function.LongSupplier any) {
    switch (r.nextInt(6)) {
      case 0:
        return min + r.nextInt(3);
      case 1:
        return max - r.nextInt(3);
      case 2:
        return r.nextInt(2001) - 1000;
      default:
        return any.getAsLong();
    }
  }

  static String randomString(Random r) {
    StringBuilder sb = new StringBuilder();
    int len = r.nextInt(6);
    for (int i = 0; i < len; i++) {
      int k = r.nextInt(5);
      int cp =
          k == 0
              ? 1 + r.nextInt(3)
              : k == 1
                  ? 'a' + r.nextInt(3)
                  : k == 2
                      ? 0x80 + r.nextInt(0x780)
                      : k == 3 ? 0xe000 + r.nextInt(0x1fff) : 0x10000 + r.nextInt(0xfffff);
      sb.appendCodePoint(cp);
    }
    return sb.toString();
  }

  static int compareCodePoints(String a, String b) {
    return Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
  }

  /**
   * One field type's order property: values drawn by {@code gen} (seeded) keep their natural order
   * in the encoded keys.
   */
  record OrderCase<T>(
      String name, String fieldYaml, int seed, Function<Random, T> gen, Comparator<T> natural) {
    @Override
    public String toString() {
      return name;
    }

    void check() {
      Random r = new Random(seed);
      assertOrderPreserved(single(fieldYaml), () -> gen.apply(r), natural);
    }
  }

  static Stream<OrderCase<?>> singleFieldOrders() {
    return Stream.of(
        new OrderCase<Long>(
            "signed long",
            "    type: long\n    signed: true\n",
            1,
            PropertyTest::edgeLong,
            Long::compare),
        new OrderCase<Long>(
            "unsigned long, non-negative",
            "    type: long\n    signed: false\n",
            2,
            r -> edgeLong(r) & Long.MAX_VALUE,
            Long::compare),
        new OrderCase<Integer>(
            "signed int",
            "    type: int\n    signed: true\n",
            3,
            PropertyTest::edgeInt,
            Integer::compare),
        new OrderCase<Integer>(
            "unsigned int, non-negative",
            "    type: int\n",
            4,
            r -> edgeInt(r) & Integer.MAX_VALUE,
            Integer::compare),
        new OrderCase<Long>(
            "reversed long is newest first",
            "    type: reversed_long\n",
            5,
            r -> edgeLong(r) & Long.MAX_VALUE,
            (a, b) -> Long.compare(b, a)),
        new OrderCase<String>(
            "terminated string in code point order",
            "    type: string\n",
            6,
            PropertyTest::randomString,
            PropertyTest::compareCodePoints),
        new OrderCase<String>(
            "unterminated string in code point order",
            "    type: string\n    terminated: false\n",
            7,
            PropertyTest::randomString,
            PropertyTest::compareCodePoints),
        new OrderCase<byte[]>(
            "fixed bytes in unsigned order",
            "    type: bytes\n    length: 3\n",
            8,
            r -> {
              byte[] b = new byte[3];
              r.nextBytes(b);
              return b;
            },
            Arrays::compareUnsigned));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("singleFieldOrders")
  void encodedKeysKeepTheFieldsOrder(OrderCase<?> c) {
    c.check();
  }

  @Test
  void stringThenLongCompositeOrder() {
    // "ab" must sort before "abc" whatever follows: the terminator keeps entities apart
    KeyLayout l =
        KeyLayout.parse(
            "name: c\nprefix:\n  kind: none\nfields:\n  - name: s\n    type: string\n  - name: t\n    type: long\n    signed: true\n",
            "c");
    Random r = new Random(9);
    List<Object[]> vals = new ArrayList<>();
    for (int i = 0; i < ITER; i++) {
      vals.add(new Object[] {randomString(r), edgeLong(r)});
    }
    Comparator<Object[]> natural =
        Comparator.<Object[], String>comparing(o -> (String) o[0], PropertyTest::compareCodePoints)
            .thenComparing(o -> (Long) o[1]);
    List<Object[]> a = new ArrayList<>(vals);
    a.sort(natural);
    List<Object[]> b = new ArrayList<>(vals);
    b.sort(
        (x, y) ->
            Arrays.compareUnsigned(
                l.encode(Map.of("s", x[0], "t", x[1])), l.encode(Map.of("s", y[0], "t", y[1]))));
    for (int i = 0; i < a.size(); i++) {
      assertEquals(0, natural.compare(a.get(i), b.get(i)));
    }
  }

  @Test
  void roundTripEveryCodecAndPrefix() {
    String fields =
        "fields:\n"
            + "  - name: s\n    type: string\n"
            + "  - name: i\n    type: int\n    signed: true\n"
            + "  - name: l\n    type: long\n"
            + "  - name: b\n    type: bytes\n    length: 5\n"
            + "  - name: sb\n    type: sub_bucket\n    from: r\n    buckets: 7\n"
            + "  - name: r\n    type: reversed_long\n"
            + "  - name: t\n    type: string\n    terminated: false\n";
    List<KeyLayout> layouts = new ArrayList<>();
    layouts.add(KeyLayout.parse("name: none\nprefix:\n  kind: none\n" + fields, "n"));
    for (HashFunction h : HashFunction.values()) {
      for (int n : new int[] {1, 7, 16, 256}) {
        layouts.add(salted(n, h, "", fields));
      }
      if (h != HashFunction.PHOENIX) {
        layouts.add(hashPrefixed(h, "    - s\n    - sb\n", fields));
      }
    }
    Random r = new Random(10);
    for (KeyLayout layout : layouts) {
      for (int it = 0; it < 500; it++) {
        byte[] b = new byte[5];
        r.nextBytes(b);
        Map<String, Object> v =
            Map.of(
                "s",
                randomString(r).replace("\u0001", ""),
                "i",
                edgeInt(r),
                "l",
                edgeLong(r),
                "b",
                b,
                "r",
                edgeLong(r) & Long.MAX_VALUE,
                "t",
                randomString(r));
        byte[] key = layout.encode(v);
        DecodedKey d = layout.decode(key);
        for (String k : v.keySet()) {
          if (k.equals("b")) {
            assertArrayEquals(b, (byte[]) d.get("b"));
          } else {
            assertEquals(v.get(k), d.get(k), layout.prefix() + " " + k);
          }
        }
        assertArrayEquals(key, layout.encode(d.fields()));
        layout.check(key); // a key that decodes passes the check
        // and the check that reads one field gives that field as decode does
        int fi = r.nextInt(layout.fields().size());
        Object one = layout.checkedField(key, fi);
        if (one instanceof byte[] bytes) {
          assertArrayEquals((byte[]) d.get(fi), bytes);
        } else {
          assertEquals(d.get(fi), one, layout + " field " + fi);
        }
        // a damaged key: the checks refuse exactly what decode refuses, with the same reason
        byte[] bad = key.clone();
        int at = r.nextInt(bad.length);
        bad[at] = (byte) (r.nextBoolean() ? 0 : bad[at] ^ (1 << r.nextInt(8)));
        byte[] cut = Arrays.copyOf(bad, r.nextInt(bad.length + 1));
        for (byte[] k : List.of(bad, cut)) {
          String decodeSays = refusal(() -> layout.decode(k));
          assertEquals(decodeSays, refusal(() -> layout.check(k)), layout + " " + Hex.of(k));
          assertEquals(
              decodeSays, refusal(() -> layout.checkedField(k, fi)), layout + " " + Hex.of(k));
        }
        if (layout.prefix().kind() == PrefixSpec.Kind.SALT) {
          int salt = key[0] & 0xff;
          assertTrue(salt >= 0 && salt < layout.prefix().buckets());
          assertEquals(salt, d.salt());
        }
      }
    }
  }

  @Test
  void keyFromAnotherPrefixEqualsTheEncodedValues() {
    String fields =
        "fields:\n"
            + "  - name: s\n    type: string\n"
            + "  - name: l\n    type: long\n    signed: true\n"
            + "  - name: b\n    type: bytes\n    length: 3\n"
            + "  - name: t\n    type: string\n    terminated: false\n";
    List<KeyLayout> layouts = new ArrayList<>();
    layouts.add(KeyLayout.parse("name: none\nprefix:\n  kind: none\n" + fields, "n"));
    layouts.add(
        KeyLayout.parse("name: full\nprefix:\n  kind: full_hash\n  hash: md5\n" + fields, "f"));
    for (HashFunction h : HashFunction.values()) {
      layouts.add(salted(16, h, "", fields));
      if (h != HashFunction.PHOENIX) {
        layouts.add(salted(7, h, "  fields:\n    - b\n    - s\n", fields));
        layouts.add(hashPrefixed(h, "    - t\n", fields));
      }
    }
    Random r = new Random(12);
    for (KeyLayout from : layouts) {
      if (!from.decodable()) {
        continue;
      }
      for (int it = 0; it < 100; it++) {
        byte[] b = new byte[3];
        r.nextBytes(b);
        byte[] key =
            from.encode(
                Map.of(
                    "s",
                    randomString(r).replace("\u0001", ""),
                    "l",
                    edgeLong(r),
                    "b",
                    b,
                    "t",
                    randomString(r)));
        DecodedKey d = from.decode(key);
        for (KeyLayout to : layouts) {
          assertTrue(to.sameFieldsAs(from));
          assertArrayEquals(
              to.encode(d.fields()), to.encodeFromKey(from, key, d), from + " -> " + to);
        }
      }
    }
    KeyLayout reordered =
        KeyLayout.parse(
            "name: r\nprefix:\n  kind: none\nfields:\n  - name: l\n    type: long\n    signed: true\n"
                + "  - name: s\n    type: string\n  - name: b\n    type: bytes\n    length: 3\n"
                + "  - name: t\n    type: string\n    terminated: false\n",
            "r");
    assertFalse(reordered.sameFieldsAs(layouts.get(0)));
    byte[] key = layouts.get(0).encode(Map.of("s", "a", "l", 1L, "b", new byte[3], "t", "x"));
    assertThrows(
        IllegalArgumentException.class,
        () -> reordered.encodeFromKey(layouts.get(0), key, layouts.get(0).decode(key)));
  }

  /** The reason a key is refused, or null if it is not. */
  /** A layout salted into {@code buckets} by {@code hash} (of {@code saltFields}, default all). */
  private static KeyLayout salted(
      int buckets, HashFunction hash, String saltFields, String fields) {
    return KeyLayout.parse(
        String.format(
            "name: s\nprefix:\n  kind: salt\n  buckets: %d\n  hash: %s\n%s%s",
            buckets, hash.fileName(), saltFields, fields),
        "s");
  }

  /** A layout with a 2-byte {@code hash} prefix of {@code prefixFields} (YAML list items). */
  private static KeyLayout hashPrefixed(HashFunction hash, String prefixFields, String fields) {
    return KeyLayout.parse(
        String.format(
            "name: h\nprefix:\n  kind: hash_prefix\n  hash: %s\n  fields:\n%s%s",
            hash.fileName(), prefixFields, fields),
        "h");
  }

  private static String refusal(Runnable r) {
    try {
      r.run();
      return null;
    } catch (KeyDecodeException e) {
      return e.getMessage();
    }
  }

  @Test
  void saltAlwaysInRange() {
    Random r = new Random(11);
    for (HashFunction h : HashFunction.values()) {
      for (int n = 1; n <= 256; n++) {
        for (int i = 0; i < 40; i++) {
          byte[] in = new byte[r.nextInt(12)];
          r.nextBytes(in);
          int b = h.bucket(in, n);
          assertTrue(b >= 0 && b < n, h + " n=" + n + " -> " + b);
        }
        int b =
            h == HashFunction.PHOENIX
                ? Math.abs(Integer.MIN_VALUE % n)
                : Math.floorMod(Integer.MIN_VALUE, n);
        assertTrue(b >= 0 && b < n);
      }
    }
  }
}

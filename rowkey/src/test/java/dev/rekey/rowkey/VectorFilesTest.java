package dev.rekey.rowkey;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The vector files themselves: well-formed, and together they cover every prefix, hash, codec and
 * edge.
 */
@Tag("unit")
class VectorFilesTest {

  @Test
  void wellFormedAndCovering() throws IOException {
    Path root = TestPaths.repoRoot();
    Set<PrefixSpec.Kind> kinds = EnumSet.noneOf(PrefixSpec.Kind.class);
    Set<HashFunction> hashes = EnumSet.noneOf(HashFunction.class);
    Set<String> codecs = new HashSet<>();
    Set<Integer> saltNs = new HashSet<>();
    Set<String> edges = new HashSet<>();
    int encodeErrors = 0;
    int decodeErrors = 0;
    int badLayouts = 0;
    Set<String> rejectedYaml = new HashSet<>();
    Set<String> shipped = new HashSet<>();
    for (Path f : VectorsTest.vectorFiles()) {
      Map<String, Object> doc = VectorChecker.readJson(f);
      if (doc.containsKey("badYaml")) {
        for (Object o : (List<?>) doc.get("badYaml")) {
          Map<String, Object> b = VectorChecker.asMap(o);
          assertEquals(Set.of("name", "yaml", "error"), b.keySet(), f + ": " + b);
          rejectedYaml.add((String) b.get("yaml"));
        }
        continue;
      }
      if (doc.containsKey("badLayouts")) {
        for (Object o : (List<?>) doc.get("badLayouts")) {
          Map<String, Object> b = VectorChecker.asMap(o);
          assertEquals(Set.of("name", "layout", "error"), b.keySet(), f + ": " + b);
          assertFalse(((String) b.get("error")).isBlank());
          badLayouts++;
        }
        continue;
      }
      assertTrue(
          Set.of("description", "layout", "vectors").containsAll(doc.keySet()),
          f + " keys " + doc.keySet());
      if (doc.get("layout") instanceof String) {
        shipped.add((String) doc.get("layout"));
      }
      KeyLayout layout = VectorChecker.layoutOf(doc, f, root);
      kinds.add(layout.prefix().kind());
      layout.prefix().hashFunction().ifPresent(hashes::add);
      if (layout.prefix().kind() == PrefixSpec.Kind.SALT) {
        saltNs.add(layout.prefix().buckets());
      }
      for (FieldSpec fs : layout.fields()) {
        codecs.add(
            fs.type()
                + (fs.signFlip() ? "+flip" : "")
                + (fs.type() == FieldType.STRING && !fs.terminated() ? "+unterminated" : ""));
      }
      Set<String> names = new HashSet<>();
      for (Object o : (List<?>) doc.get("vectors")) {
        Map<String, Object> v = VectorChecker.asMap(o);
        String name = (String) v.get("name");
        assertTrue(name != null && !name.isBlank(), f + ": vector without name");
        assertTrue(names.add(name), f + ": duplicate vector name " + name);
        boolean hasKey = v.containsKey("key");
        if (v.containsKey("encodeError")) {
          encodeErrors++;
          assertEquals(Set.of("name", "fields", "encodeError"), v.keySet(), f + ": " + name);
        } else if (v.containsKey("decodeError")) {
          decodeErrors++;
          assertEquals(Set.of("name", "key", "decodeError"), v.keySet(), f + ": " + name);
        } else {
          assertEquals(Set.of("name", "fields", "key"), v.keySet(), f + ": " + name);
        }
        if (hasKey) {
          String k = (String) v.get("key");
          if (!k.matches("([0-9a-f]{2})*")) {
            fail(f + ": " + name + ": key is not lower-case hex: " + k);
          }
        }
        if (v.containsKey("fields")) {
          for (Map.Entry<String, Object> e : VectorChecker.asMap(v.get("fields")).entrySet()) {
            assertTrue(
                e.getValue() instanceof String, f + ": " + name + ": field values are strings");
            String s = (String) e.getValue();
            FieldSpec fs = layout.field(e.getKey());
            if (fs == null) {
              continue;
            }
            if (s.isEmpty() && fs.type() == FieldType.STRING) edges.add("empty string");
            if (s.chars().anyMatch(c -> c > 0x7f)) edges.add("non-ASCII");
            if (s.equals(Long.toString(Long.MIN_VALUE))) edges.add("Long.MIN");
            if (s.equals(Long.toString(Long.MAX_VALUE))) edges.add("Long.MAX");
            if (fs.type() == FieldType.INT && s.startsWith("-")) edges.add("negative int");
          }
        }
        if (name.contains("Integer.MIN_VALUE")) edges.add("hash MIN_VALUE");
        if (name.contains("negative hash")) edges.add("negative hash");
      }
    }
    assertEquals(EnumSet.allOf(PrefixSpec.Kind.class), kinds, "prefix kinds covered");
    assertEquals(EnumSet.allOf(HashFunction.class), hashes, "hashes covered");
    assertTrue(
        codecs.containsAll(
            Set.of(
                "STRING",
                "STRING+unterminated",
                "BYTES",
                "INT",
                "INT+flip",
                "LONG",
                "LONG+flip",
                "REVERSED_LONG",
                "SUB_BUCKET")),
        "codecs covered: " + codecs);
    assertTrue(saltNs.containsAll(Set.of(1, 256)), "salt N=1 and N=256: " + saltNs);
    assertEquals(
        Set.of(
            "empty string",
            "non-ASCII",
            "Long.MIN",
            "Long.MAX",
            "negative int",
            "hash MIN_VALUE",
            "negative hash"),
        edges);
    assertEquals(
        Set.of(
            "conf/layouts/events-v2.yaml",
            "conf/layouts/telemetry-by-device.yaml",
            "conf/layouts/telemetry-v1.yaml",
            "conf/layouts/telemetry-v2.yaml"),
        shipped);
    // the YAML 1.1 forms SnakeYAML's own loader would read as numbers, booleans or references
    for (String form :
        List.of(
            ": 016\n", ": 1:0\n", ": 0x10\n", ": 1_6\n", ": +16\n", ": no\n", ": &", ": *", "!!")) {
      assertTrue(
          rejectedYaml.stream().anyMatch(y -> y.contains(form)),
          "a rejected YAML vector uses " + form);
    }
    assertTrue(
        encodeErrors >= 20 && decodeErrors >= 20 && badLayouts >= 20,
        encodeErrors + "/" + decodeErrors + "/" + badLayouts);
  }

  @Test
  void minValueVectorsReallyHitMinValue() throws IOException {
    int seen = 0;
    for (Path f : VectorsTest.vectorFiles()) {
      Map<String, Object> doc = VectorChecker.readJson(f);
      if (!doc.containsKey("vectors")) {
        continue;
      }
      KeyLayout layout = VectorChecker.layoutOf(doc, f, TestPaths.repoRoot());
      for (Object o : (List<?>) doc.get("vectors")) {
        Map<String, Object> v = VectorChecker.asMap(o);
        String name = (String) v.get("name");
        if (!name.contains("== Integer.MIN_VALUE")
            && !name.contains("hashCode == Integer.MIN_VALUE")) {
          continue;
        }
        byte[] key = Hex.parse((String) v.get("key"));
        byte[] natural = java.util.Arrays.copyOfRange(key, 1, key.length);
        assertEquals(Integer.MIN_VALUE, layout.prefix().hash().hash32(natural), f + ": " + name);
        seen++;
      }
    }
    assertTrue(seen >= 6, "MIN_VALUE vectors: " + seen);
  }
}

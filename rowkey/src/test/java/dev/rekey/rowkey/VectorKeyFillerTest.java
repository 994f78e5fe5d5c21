package dev.rekey.rowkey;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * One-off tool, not a check: with -Drekey.fillVectors=OUT it computes the Java key for every vector
 * whose key is "?" and writes "file TAB index TAB hex" lines to OUT (merged by
 * rowkey/python/tools/fill_vector_keys.py). Expected keys were generated once this way and are
 * pinned.
 */
@Tag("unit")
class VectorKeyFillerTest {
  @Test
  @EnabledIfSystemProperty(named = "rekey.fillVectors", matches = ".+")
  void fill() throws IOException {
    Path root = TestPaths.repoRoot();
    Path dir = root.resolve("rowkey/src/main/resources/vectors");
    List<String> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files.sorted()::iterator) {
        Map<String, Object> doc = VectorChecker.readJson(f);
        if (!doc.containsKey("vectors")) {
          continue;
        }
        KeyLayout layout = VectorChecker.layoutOf(doc, f, root);
        List<?> vs = (List<?>) doc.get("vectors");
        for (int i = 0; i < vs.size(); i++) {
          Map<String, Object> v = VectorChecker.asMap(vs.get(i));
          if ("?".equals(v.get("key"))) {
            Map<String, String> text = new java.util.LinkedHashMap<>();
            VectorChecker.asMap(v.get("fields")).forEach((k, x) -> text.put(k, String.valueOf(x)));
            out.add(
                f.getFileName()
                    + "\t"
                    + i
                    + "\t"
                    + Hex.of(layout.encode(FieldValues.parse(layout, text))));
          }
        }
      }
    }
    Files.write(Path.of(System.getProperty("rekey.fillVectors")), out);
  }
}

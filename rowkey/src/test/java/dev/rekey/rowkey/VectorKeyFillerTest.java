package dev.rekey.rowkey;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every vector's key is pinned: a vector added with its key as "?" (to be filled) fails the build
 * until it is. Filling is this test's other half: with -Drekey.fillVectors=OUT it computes the Java
 * key of every such vector and writes "file TAB index TAB hex" lines to OUT (merged into the files
 * by rowkey/python/tools/fill_vector_keys.py), then the check passes once they are merged.
 */
@Tag("unit")
class VectorKeyFillerTest {
  @Test
  void everyVectorKeyIsPinned() throws IOException {
    String fillTo = System.getProperty("rekey.fillVectors");
    List<String> unpinned = unpinned();
    if (fillTo != null && !fillTo.isBlank()) {
      Files.write(Path.of(fillTo), unpinned);
      return;
    }
    assertEquals(
        List.of(),
        unpinned,
        "vectors with key \"?\": fill them with -Drekey.fillVectors=OUT and"
            + " rowkey/python/tools/fill_vector_keys.py");
  }

  /** "file TAB index TAB computed key" for every vector whose key is "?". */
  private static List<String> unpinned() throws IOException {
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
    return out;
  }
}

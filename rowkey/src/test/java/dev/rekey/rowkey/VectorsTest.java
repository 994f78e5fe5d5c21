package dev.rekey.rowkey;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Every pinned vector (and every must-reject layout) holds for the Java library. */
@Tag("unit")
class VectorsTest {
  static List<Path> vectorFiles() throws IOException {
    try (Stream<Path> s =
        Files.list(TestPaths.repoRoot().resolve("rowkey/src/main/resources/vectors"))) {
      return s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    }
  }

  @Test
  void allVectorsPass() throws IOException {
    List<String> failures = new ArrayList<>();
    int passed = 0;
    for (Path f : vectorFiles()) {
      VectorChecker.Report r = VectorChecker.runFile(f, TestPaths.repoRoot());
      passed += r.passed();
      failures.addAll(r.failures());
    }
    assertEquals(List.of(), failures);
    assertTrue(passed >= 250, "only " + passed + " vectors");
  }

  @Test
  void checkApiForTheCli() {
    Path root = TestPaths.repoRoot();
    KeyLayout ev = KeyLayout.load(root.resolve("conf/layouts/events-v2.yaml"));
    assertEquals(
        List.of(),
        VectorChecker.check(ev, root.resolve("rowkey/src/main/resources/vectors/events-v2.json")));
    // the wrong layout for a vectors file fails loudly
    KeyLayout v1 = KeyLayout.load(root.resolve("conf/layouts/telemetry-v1.yaml"));
    assertTrue(
        VectorChecker.check(v1, root.resolve("rowkey/src/main/resources/vectors/events-v2.json"))
                .size()
            > 5);
  }
}

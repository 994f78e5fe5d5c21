package dev.rekey.rowkey;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Runs the Python reference over every vector (python3 rowkey/python/rekey_rowkey_vectors.py) and
 * wants exit 0.
 */
@Tag("unit")
class PythonReferenceTest {
  @Test
  void pythonReproducesEveryVector() throws Exception {
    PythonRun run =
        PythonRun.of(
            TestPaths.repoRoot(),
            Duration.ofSeconds(120),
            "python3",
            "rowkey/python/rekey_rowkey_vectors.py");
    assertEquals(0, run.exitCode(), run.describe());
    assertTrue(run.output().strip().matches("(?s).*\\d+ passed, 0 failed"), run.describe());
  }
}

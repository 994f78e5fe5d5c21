package dev.rekey.rowkey;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Runs the Python reference over every vector (python3 rowkey/python/check_vectors.py) and wants
 * exit 0.
 */
@Tag("unit")
class PythonReferenceTest {
  @Test
  void pythonReproducesEveryVector() throws Exception {
    Path root = TestPaths.repoRoot();
    Process p =
        new ProcessBuilder("python3", "rowkey/python/check_vectors.py")
            .directory(root.toFile())
            .redirectErrorStream(true)
            .start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "check_vectors.py timed out");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.strip().matches("(?s).*\\d+ passed, 0 failed"), out);
  }
}

package dev.rekey.rowkey;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
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
    // read while it runs: a script that fills the pipe buffer would otherwise block forever
    CompletableFuture<String> output =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("check_vectors.py did not finish in 120 s");
    }
    String out = output.get(10, TimeUnit.SECONDS);
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.strip().matches("(?s).*\\d+ passed, 0 failed"), out);
  }
}

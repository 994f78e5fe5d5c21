package dev.rekey.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/benchmarks.json and the table at the top of docs/benchmarks.md are what bench/collect.py
 * makes of the committed records (docs/bench-records/): no figure is typed by hand.
 */
class BenchFiguresTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @Test
  void theFiguresAreTheCommittedRecords() throws Exception {
    Process p =
        new ProcessBuilder("python3", ROOT.resolve("bench/collect.py").toString(), "--check")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
  }
}

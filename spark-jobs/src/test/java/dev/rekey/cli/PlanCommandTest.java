package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.admin.plan.SplitFile;
import dev.rekey.rowkey.SplitPoints;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** rekey plan in-process: arithmetic, hex points, the split file. */
@Tag("unit")
class PlanCommandTest {
  private static CliRun run(String... args) {
    System.setProperty(
        "rekey.home", Path.of(System.getProperty("rekey.home", "..")).toAbsolutePath().toString());
    return CliRun.of(args);
  }

  @Test
  void volumePlanPrintsTheArithmeticAndWritesTheFile(@TempDir Path tmp) throws Exception {
    Path file = tmp.resolve("splits.txt");
    CliRun r =
        run(
            "plan",
            "--layout",
            "events-v2",
            "--volume-gb",
            "500",
            "--region-gb",
            "6",
            "--growth",
            "1.5",
            "--out",
            file.toString());
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("500 GB ÷ 6 GB × 1.5 = 125 → 128 regions"), r.out());
    assertTrue(r.out().contains("128 regions, 127 split points (hex):\n  0200\n  0400\n"), r.out());
    var points = SplitFile.read(file);
    var expected = SplitPoints.prefix(2, 128);
    assertEquals(expected.size(), points.size());
    for (int i = 0; i < points.size(); i++) {
      assertTrue(Arrays.equals(expected.get(i), points.get(i)), "point " + i);
    }
    assertTrue(Files.readString(file).startsWith("\\x02\\x00\n\\x04\\x00\n"));
  }

  @Test
  void badGrowthIsAUsageError() {
    CliRun r = run("plan", "--layout", "events-v2", "--volume-gb", "500", "--growth", "4");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("Cannot plan events-v2: --growth must be in 1.5..2"), r.err());
  }
}

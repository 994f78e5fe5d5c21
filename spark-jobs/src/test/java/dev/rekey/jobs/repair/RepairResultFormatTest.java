package dev.rekey.jobs.repair;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Pins what a repair prints and writes, byte for byte: the console lines, repair.json, repair.html
 * and the JSON list of several targets' results (Jackson's view of {@link RepairResult}). The
 * expected files were written by the positional RepairResult (15 fields) this shape replaced.
 */
@Tag("unit")
class RepairResultFormatTest {
  static final long HOUR = 3_600_000L;
  static final long FROM = 1_764_374_400_000L; // 2025-11-29T00:00:00Z

  /** A run that compared first, wrote by Puts, compacted, resumed one bucket; one still differs. */
  static RepairResult repaired() {
    Map<String, Double> phases = new LinkedHashMap<>();
    phases.put(PhaseTimes.SNAPSHOT, 1.5);
    phases.put(PhaseTimes.COMPARE, 4.25);
    return new RepairResult(
        "telemetry_v2",
        new RepairResult.OldSide(
            "table telemetry_v1", "rekey_repair_telemetry_v1_0a1b2c3d", FROM + 30 * HOUR),
        new RepairResult.Selection(FROM, FROM + 6 * HOUR, HOUR, true, 6),
        new RepairResult.Write(RepairPath.choose(120, 1000), true, null),
        List.of(
            new TimeBucketRepair(
                1,
                FROM + HOUR,
                FROM + 2 * HOUR,
                new TimeBucketCounts(10, 2, 1, 45, 3, 2, 1),
                new WriteCounts(45, 3, 0),
                false,
                TimeBucketCounts.NONE),
            new TimeBucketRepair(
                2,
                FROM + 2 * HOUR,
                FROM + 3 * HOUR,
                null,
                new WriteCounts(7, 0, 0),
                true,
                TimeBucketCounts.NONE),
            new TimeBucketRepair(
                4,
                FROM + 4 * HOUR,
                FROM + 5 * HOUR,
                new TimeBucketCounts(3, 0, 0, 12, 0, 0, 0),
                new WriteCounts(12, 0, 2),
                false,
                new TimeBucketCounts(1, 0, 0, 2, 0, 0, 0))),
        new RepairResult.Timings(phases, 12.75));
  }

  /** A dry run from a reconcile report: the mutations in a file, nothing written. */
  static RepairResult dryRun() {
    return new RepairResult(
        "ns:telemetry_v3",
        new RepairResult.OldSide("snapshot v1_snap", "v1_snap", FROM + 30 * HOUR),
        new RepairResult.Selection(FROM, FROM + 2 * HOUR, HOUR, false, 1),
        new RepairResult.Write(null, false, Path.of("/tmp/m.jsonl")),
        List.of(
            new TimeBucketRepair(
                0,
                FROM,
                FROM + HOUR,
                new TimeBucketCounts(2, 0, 0, 4, 0, 0, 0),
                null,
                false,
                null)),
        new RepairResult.Timings(Map.of(), 0.5));
  }

  @Test
  void aRepairedRunPrintsAndWritesAsBefore() {
    same("repaired", repaired());
  }

  @Test
  void aDryRunPrintsAndWritesAsBefore() {
    same("dry-run", dryRun());
  }

  /** The console lines, repair.json and repair.html of {@code r}, each against its file. */
  private static void same(String name, RepairResult r) {
    assertAll(
        () ->
            assertEquals(
                expected(name + ".console.txt"), actual(name + ".console.txt", r.console())),
        () -> assertEquals(expected(name + ".json"), actual(name + ".json", r.toJson())),
        () -> assertEquals(expected(name + ".html"), actual(name + ".html", RepairReport.html(r))));
  }

  @Test
  void severalTargetsSerialiseEachResultAsBefore() throws IOException {
    String json = new RepairResults(List.of(repaired(), dryRun())).toJson();
    assertEquals(expected("several.json"), actual("several.json", json));
  }

  private static String expected(String name) throws IOException {
    try (InputStream in = RepairResultFormatTest.class.getResourceAsStream("format/" + name)) {
      return in == null
          ? "(missing " + name + ")"
          : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The text, also kept in target/ to diff against the expected file when they differ. */
  private static String actual(String name, String text) throws IOException {
    Path p = Path.of("target", "repair-format", name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text);
    return text;
  }
}

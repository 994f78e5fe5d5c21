package dev.rekey.jobs.repair;

import static dev.rekey.jobs.repair.RepairResultFormatTest.FROM;
import static dev.rekey.jobs.repair.RepairResultFormatTest.HOUR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.rekey.common.TimeWindow;
import dev.rekey.jobs.reconcile.TimeBuckets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RepairResultBuilderTest {
  static final TimeBuckets SIX_HOURS = new TimeBuckets(new TimeWindow(FROM, FROM + 6 * HOUR), HOUR);

  @Test
  void eachBucketGetsWhatWasFoundWrittenAndFoundAgainAndAResumedOneItsEarlierRunsWrites() {
    RepairResult built =
        new RepairResultBuilder(
                "telemetry_v2",
                new RepairResult.OldSide(
                    "table telemetry_v1", "rekey_repair_telemetry_v1_0a1b2c3d", FROM + 30 * HOUR),
                SIX_HOURS,
                new TreeSet<>(List.of(1, 2, 4)),
                true)
            .earlier(Map.of(2, new WriteCounts(7, 0, 0)))
            .found(
                Map.of(
                    1, new TimeBucketCounts(10, 2, 1, 45, 3, 2, 1),
                    4, new TimeBucketCounts(3, 0, 0, 12, 0, 0, 0)),
                RepairPath.choose(120, 1000))
            .compacted(true)
            .rechecked(
                Map.of(1, new WriteCounts(45, 3, 0), 4, new WriteCounts(12, 0, 2)),
                Map.of(4, new TimeBucketCounts(1, 0, 0, 2, 0, 0, 0)))
            .build();
    RepairResult expected = RepairResultFormatTest.repaired();
    assertEquals(expected, built.withTimings(expected.timings()));
  }

  @Test
  void aDryRunHasNothingWrittenOrFoundAgain() {
    RepairResult r =
        oneBucket(0, false)
            .found(Map.of(0, new TimeBucketCounts(2, 0, 0, 4, 0, 0, 0)), null)
            .mutationFile(Path.of("m.jsonl"))
            .build();
    assertEquals(RepairResult.Outcome.DRY_RUN, r.outcome());
    assertEquals(1, r.compared(), "from a report: the buckets repaired are the ones compared");
    assertNull(r.buckets().get(0).written());
    assertNull(r.buckets().get(0).after());
    assertEquals(0, r.exitCode());
  }

  @Test
  void aBucketStillDifferentAfterTheWritesIsTheMismatchExit() {
    RepairResult r =
        oneBucket(3, true)
            .rechecked(Map.of(), Map.of(3, new TimeBucketCounts(0, 1, 0, 0, 1, 0, 0)))
            .build();
    assertEquals(RepairResult.Outcome.STILL_DIFFERS, r.outcome());
    assertEquals(6, r.compared(), "compared first: every bucket of the window");
    assertEquals(WriteCounts.NONE, r.buckets().get(0).written());
    assertEquals(3, r.exitCode());
  }

  private static RepairResultBuilder oneBucket(int bucket, boolean comparedFirst) {
    return new RepairResultBuilder(
        "t2",
        new RepairResult.OldSide("snapshot s", "s", FROM),
        SIX_HOURS,
        new TreeSet<>(List.of(bucket)),
        comparedFirst);
  }
}

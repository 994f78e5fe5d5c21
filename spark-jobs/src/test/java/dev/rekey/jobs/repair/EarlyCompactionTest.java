package dev.rekey.jobs.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.TimeWindow;
import dev.rekey.read.ReadPlan;
import dev.rekey.testing.Layouts;
import java.util.List;
import org.junit.jupiter.api.Test;

class EarlyCompactionTest {
  private static final long DAY = 1_795_910_400_000L;
  private static final long HALF_HOUR = 1_800_000L;

  @Test
  void aSaltedLayoutsBucketsAreOneRangePerSaltPerBucket() {
    ReadPlan one =
        EarlyCompaction.plan(
            Layouts.shipped("telemetry-v2"),
            List.of(new TimeWindow(DAY + 5 * HALF_HOUR, DAY + 6 * HALF_HOUR)));
    ReadPlan three =
        EarlyCompaction.plan(
            Layouts.shipped("telemetry-v2"),
            List.of(
                new TimeWindow(DAY + 5 * HALF_HOUR, DAY + 6 * HALF_HOUR),
                new TimeWindow(DAY + 20 * HALF_HOUR, DAY + 21 * HALF_HOUR),
                new TimeWindow(DAY + 41 * HALF_HOUR, DAY + 42 * HALF_HOUR)));
    assertTrue(one.keyRanges());
    assertEquals(3 * one.ranges().size(), three.ranges().size());
  }

  @Test
  void noKeyRangesNoEarlyScan() {
    assertNull(
        EarlyCompaction.plan(
            Layouts.shipped("events-v2"), List.of(new TimeWindow(DAY, DAY + HALF_HOUR))));
  }

  @Test
  void onlyRegionsWhoseMarkersAreAllFromBeforeTheSnapshot() {
    assertTrue(EarlyCompaction.compactEarly(3, 0));
    assertFalse(EarlyCompaction.compactEarly(0, 0), "nothing to compact");
    assertFalse(
        EarlyCompaction.compactEarly(3, 1),
        "a delete after the snapshot must stay visible to the writers' check");
  }
}

package dev.rekey.jobs.analyze;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeArgs;
import dev.rekey.common.TimeWindow;
import dev.rekey.read.ReadPlan;
import dev.rekey.testing.Layouts;
import org.junit.jupiter.api.Test;

/** How analyze's window limits its read (no Spark, no HBase). */
class AnalyzeReadPlanTest {
  private static final long FROM = GeneratedKeys.DAY_START;
  private static final long TO = FROM + GeneratedKeys.DAY_MS;
  private static final TimeWindow WINDOW = new TimeWindow(FROM, TO);

  @Test
  void noWindowReadsEveryKey() {
    assertEquals(
        ReadPlan.Pruning.NONE,
        Analyze.readPlan(Layouts.shipped("telemetry-v2"), TimeWindow.ALL).pruning());
  }

  @Test
  void aSaltedTimeLeadingLayoutReadsOneKeyRangePerBucket() {
    ReadPlan p = Analyze.readPlan(Layouts.shipped("telemetry-v2"), WINDOW);
    assertEquals(ReadPlan.Pruning.KEY_RANGES, p.pruning());
    assertEquals(16, p.ranges().size());
  }

  @Test
  void aLayoutWithTimeAfterTheEntityOrNoLayoutReadsTheWindowAsACellTimeRange() {
    ReadPlan hashed = Analyze.readPlan(Layouts.shipped("events-v2"), WINDOW);
    assertEquals(ReadPlan.Pruning.CELL_TIME, hashed.pruning());
    assertTrue(hashed.describe().contains("ordered by a hash of [userId]"), hashed.describe());
    ReadPlan none = Analyze.readPlan(null, WINDOW);
    assertEquals(ReadPlan.Pruning.CELL_TIME, none.pruning());
    assertTrue(none.describe().contains("no --layout"), none.describe());
  }

  @Test
  void anEmptyWindowIsAUsageError() {
    RekeyException e =
        assertThrows(
            RekeyException.class,
            () -> TimeArgs.window(Long.toString(TO), Long.toString(FROM), null));
    assertEquals(2, e.exitCode());
    assertTrue(e.getMessage().startsWith("Invalid time range: --from "), e.getMessage());
  }
}

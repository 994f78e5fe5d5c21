package dev.rekey.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.KeyRangePlanner;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A merged read's scans are the key library's ranges (KeyRangePlannerTest tests what each layout
 * serves) with the query's limit and direction, and its refusals are the planner's.
 */
@Tag("unit")
class ScanPlanTest {
  private static final long T0 = 1_764_374_400_000L; // 2025-11-29T00:00Z
  private static final long HOUR = 3_600_000L;

  @Test
  void saltedWindowIsThePlannersRangePerBucket() {
    KeyLayout v2 = Layouts.shipped("telemetry-v2");
    ScanPlan p = ScanPlan.of(v2, ReadQuery.window(T0, T0 + HOUR));
    assertTrue(p.servable());
    assertEquals(1, p.mergeOffset());
    assertEquals(KeyRangePlanner.window(v2, T0, T0 + HOUR).ranges(), p.ranges());
    assertEquals(16, p.ranges().size());
  }

  @Test
  void limitAndDirectionComeFromTheQuery() {
    KeyLayout v1 = Layouts.shipped("telemetry-v1");
    ScanPlan p =
        ScanPlan.of(v1, ReadQuery.builder().window(T0, T0 + HOUR).limit(10).reverse(true).build());
    assertEquals(1, p.ranges().size());
    assertEquals(-1, p.ranges().get(0).bucket());
    assertEquals(10, p.limit());
    assertTrue(p.reverse());
    assertEquals(0, p.mergeOffset());
  }

  @Test
  void refusalIsThePlannersSentence() {
    ScanPlan p = ScanPlan.of(Layouts.shipped("events-v2"), ReadQuery.window(T0, T0 + HOUR));
    assertFalse(p.servable());
    assertEquals(
        KeyRangePlanner.window(Layouts.shipped("events-v2"), T0, T0 + HOUR).refusal(),
        p.refusalReason());
    assertTrue(
        p.refusal().startsWith("Cannot read layout events-v2 by time window: its rows are ordered"),
        p.refusal());
  }
}

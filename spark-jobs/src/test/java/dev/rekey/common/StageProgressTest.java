package dev.rekey.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The progress line's arithmetic and text: pure. */
@Tag("unit")
class StageProgressTest {
  @Test
  void etaFollowsThePaceOfTheFinishedTasks() {
    StageProgress p =
        new StageProgress(
            "reconcile",
            3,
            "collectAsMap at Reconcile.java:120",
            "reconcile: count and digest 24 buckets",
            12,
            2,
            32,
            1_234_567,
            24_000);
    assertEquals(40, p.etaSeconds()); // 24 s for 12 tasks, 20 left
    assertEquals(51_440, Math.round(p.rowsPerSecond()));
    assertEquals(
        "reconcile: count and digest 24 buckets (stage 3): 12 of 32 tasks done, 2 running, "
            + "1,234,567 rows read (51,440 rows/s), 24 s so far, ETA 40 s",
        p.line());
  }

  @Test
  void aStageStartedOutsideAPhaseIsNamedByItsCallSite() {
    for (String none : new String[] {null, "", " "}) {
      assertEquals(
          "reconcile: stage 3 (collectAsMap at Reconcile.java:120): 12 of 32 tasks done, 24 s so "
              + "far, ETA 40 s",
          new StageProgress(
                  "reconcile", 3, "collectAsMap at Reconcile.java:120", none, 12, 0, 32, 0, 24_000)
              .line());
    }
  }

  @Test
  void beforeTheFirstTaskEndsThereIsNoPaceAndZeroRowsAreLeftOut() {
    StageProgress p = new StageProgress("backfill", 0, "x at Y.java:1", null, 0, 2, 16, 0, 7_000);
    assertEquals(-1, p.etaSeconds());
    assertEquals(
        "backfill: stage 0 (x at Y.java:1): 0 of 16 tasks done, 2 running, 7 s so far, ETA when the first "
            + "task ends",
        p.line());
    assertEquals(0, new StageProgress("j", 1, "n", null, 4, 0, 4, 10, 500).etaSeconds());
    assertEquals(0, new StageProgress("j", 1, "n", null, 0, 0, 4, 10, 500).rowsPerSecond());
    assertEquals("1 min 05 s", StageProgress.duration(65));
    assertEquals("2 h 03 min", StageProgress.duration(2 * 3600 + 3 * 60 + 9));
  }
}

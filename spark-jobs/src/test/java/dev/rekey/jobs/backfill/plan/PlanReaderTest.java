package dev.rekey.jobs.backfill.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PlanReaderTest {
  private static final long MB = 1L << 20;

  @Test
  void aSmallSourceIsReadByOneTask() {
    assertEquals(1, PlanReader.wantedReadTasks(2, 300_000, 64 * MB));
  }

  @Test
  void aLargeSourceIsReadByTwoTasksPerCore() {
    assertEquals(4, PlanReader.wantedReadTasks(2, 10_000 * MB, 64 * MB));
  }

  @Test
  void aMidSizedSourceGetsOneTaskPerMinimumSplit() {
    assertEquals(3, PlanReader.wantedReadTasks(8, 130 * MB, 64 * MB));
  }

  @Test
  void noMinimumKeepsTwoTasksPerCore() {
    assertEquals(4, PlanReader.wantedReadTasks(2, 10, 0));
  }
}

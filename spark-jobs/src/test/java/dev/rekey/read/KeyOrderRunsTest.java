package dev.rekey.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KeyOrderRunsTest {
  @Test
  void runsAreConsecutiveInOrderAndEvenToOnePartition() {
    for (int parts = 1; parts <= 40; parts++) {
      for (int runs = 1; runs <= 45; runs++) {
        int n = Math.min(runs, parts);
        int[] sizes = new int[n];
        int prev = 0;
        for (int p = 0; p < parts; p++) {
          int r = KeyOrderRuns.runOf(p, parts, runs);
          assertTrue(r == prev || r == prev + 1, "runs are consecutive: " + parts + "/" + runs);
          prev = r;
          sizes[r]++;
        }
        assertEquals(n - 1, prev, "every run used");
        int min = java.util.Arrays.stream(sizes).min().orElseThrow();
        int max = java.util.Arrays.stream(sizes).max().orElseThrow();
        assertTrue(max - min <= 1, "even runs: " + java.util.Arrays.toString(sizes));
      }
    }
  }

  @Test
  void eightRegionsInTwoTasks() {
    assertEquals(0, KeyOrderRuns.runOf(3, 8, 2));
    assertEquals(1, KeyOrderRuns.runOf(4, 8, 2));
    assertEquals(2, KeyOrderRuns.runOf(9, 10, 3)); // 4, 3, 3
    assertEquals(1, KeyOrderRuns.runOf(4, 10, 3));
  }
}

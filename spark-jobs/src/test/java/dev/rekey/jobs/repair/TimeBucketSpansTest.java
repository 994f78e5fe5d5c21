package dev.rekey.jobs.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.rekey.common.TimeWindow;
import dev.rekey.jobs.reconcile.TimeBuckets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TimeBucketSpansTest {
  private static final long DAY = 1_795_910_400_000L;
  private static final long HALF_HOUR = 1_800_000L;
  private final TimeBuckets day =
      new TimeBuckets(new TimeWindow(DAY, DAY + 48 * HALF_HOUR), HALF_HOUR);

  private static TimeWindow w(int first, int last) {
    return new TimeWindow(DAY + first * HALF_HOUR, DAY + (last + 1) * HALF_HOUR);
  }

  @Test
  void separateBucketsAreSeparateWindowsNotTheSpanBetweenThem() {
    assertEquals(
        List.of(w(5, 5), w(20, 20), w(41, 41)), TimeBucketSpans.of(Set.of(41, 5, 20), day));
  }

  @Test
  void consecutiveBucketsAreOneWindow() {
    assertEquals(
        List.of(w(0, 2), w(4, 4), w(46, 47)), TimeBucketSpans.of(Set.of(0, 1, 2, 4, 46, 47), day));
    assertEquals(
        List.of(w(0, 47)),
        TimeBucketSpans.of(
            java.util.stream.IntStream.range(0, 48)
                .boxed()
                .collect(java.util.stream.Collectors.toSet()),
            day));
  }

  @Test
  void noBucketIsAnError() {
    assertThrows(IllegalArgumentException.class, () -> TimeBucketSpans.of(Set.of(), day));
  }
}

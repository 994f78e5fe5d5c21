package dev.rekey.jobs.repair;

import dev.rekey.common.TimeWindow;
import dev.rekey.jobs.reconcile.TimeBuckets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The time spans a repair reads (pure): the buckets to compare, neighbours joined, one window per
 * run of consecutive buckets. Buckets 5, 20 and 41 of a day are three windows, not the span from 5
 * to 41 (which would read three quarters of the day to repair three of its 48 buckets).
 */
final class TimeBucketSpans {
  private TimeBucketSpans() {}

  /** The windows holding exactly {@code buckets} (not empty) of {@code all}, in time order. */
  static List<TimeWindow> of(Set<Integer> buckets, TimeBuckets all) {
    if (buckets.isEmpty()) {
      throw new IllegalArgumentException("no bucket to read");
    }
    List<TimeWindow> out = new ArrayList<>();
    int first = -1;
    int last = -1;
    for (int b : new TreeSet<>(buckets)) {
      if (first >= 0 && b == last + 1) {
        last = b;
        continue;
      }
      if (first >= 0) {
        out.add(new TimeWindow(all.start(first), all.end(last)));
      }
      first = b;
      last = b;
    }
    out.add(new TimeWindow(all.start(first), all.end(last)));
    return out;
  }
}

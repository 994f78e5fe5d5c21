package dev.rekey.jobs.backfill.plan;

import java.util.List;

/**
 * Max / mean of rows per region (1.0 = perfectly even; the legacy hotspot table shows N for N
 * regions).
 */
public record Skew(long maxRows, double meanRows, double ratio) {
  public static Skew of(List<Long> rowsPerRegion) {
    if (rowsPerRegion.isEmpty()) {
      return new Skew(0, 0, 0);
    }
    long max = 0;
    long sum = 0;
    for (long r : rowsPerRegion) {
      max = Math.max(max, r);
      sum += r;
    }
    double mean = sum / (double) rowsPerRegion.size();
    return new Skew(max, mean, mean == 0 ? 0 : max / mean);
  }

  public String line() {
    return String.format("skew max/mean = %,d / %,.1f = %.2f", maxRows, meanRows, ratio);
  }
}

package dev.rekey.read;

/**
 * Groups a read's splits (in key order) into runs of consecutive splits, one run per task, so that
 * a task reads its splits one after the other in key order ({@link RegionRead#foldInKeyOrder}).
 * Spark's own coalescing groups by locality and would interleave them. Pure.
 */
public final class KeyOrderRuns {
  private KeyOrderRuns() {}

  /**
   * The run of partition {@code p} when {@code parts} partitions go into {@code runs} runs of
   * near-equal length (the first {@code parts % runs} runs one longer), in order.
   */
  public static int runOf(int p, int parts, int runs) {
    int n = Math.max(1, Math.min(runs, parts));
    int base = parts / n;
    int longer = parts % n; // runs 0..longer-1 hold base + 1
    int cut = longer * (base + 1);
    return p < cut ? p / (base + 1) : longer + (p - cut) / base;
  }
}

package dev.rekey.jobs.backfill.plan;

import dev.rekey.common.RekeyException;
import java.io.Serializable;
import java.time.Duration;

/**
 * How a time-tiered backfill ({@code --time-tiers P}) cuts each region's cells by cell time (plan
 * layer, pure): tiers {@code widthMillis} wide, aligned on multiples of the width since the epoch
 * (as HBase's date-tiered compaction aligns its windows), {@code count} of them from tier {@code
 * first} (the tier index of the oldest cell). Each (region, salt bucket, family) slot of the write
 * gets one HFile per tier, so a window read skips the files of the other tiers by their TIMERANGE.
 *
 * <p>{@link #choose} keeps the files per region within HBase's limit: when the tiers asked for
 * would make too many it takes the smallest multiple of the width that fits, and when not even two
 * tiers fit it refuses, naming the numbers.
 *
 * @param widthMillis a tier's width (0 when not tiered)
 * @param first the tier index ({@code floorDiv(time, width)}) of the first tier
 * @param count tiers (1 when not tiered)
 * @param reason what was decided and why, for the plan's lines
 */
public record TimeTiers(long widthMillis, long first, int count, String reason)
    implements Serializable {

  /** One tier: every cell of a slot in one file, as without {@code --time-tiers}. */
  public static final TimeTiers NONE = new TimeTiers(0, 0, 1, "");

  public boolean tiered() {
    return count > 1;
  }

  /**
   * The tier of a cell stamped {@code time}: cells outside the span the tiers were chosen for (a
   * delete marker older than every put) go to the nearest tier — a file's place never changes which
   * cells a read returns, only which files it may skip.
   */
  public int tierOf(long time) {
    if (count <= 1) {
      return 0;
    }
    long t = Math.floorDiv(time, widthMillis) - first;
    return t < 0 ? 0 : t >= count ? count - 1 : (int) t;
  }

  /** [start, end) of tier {@code i} in epoch millis. */
  public long startOf(int i) {
    return (first + i) * widthMillis;
  }

  /** Tiers of width {@code w} that cells stamped in [min, max] fall into. */
  static long tiersOver(long w, long min, long max) {
    return Math.floorDiv(max, w) - Math.floorDiv(min, w) + 1;
  }

  /**
   * The tiers for cells stamped in [{@code min}, {@code max}] (the source's span).
   *
   * @param width the tier width asked for
   * @param asked how it was asked for, for messages ("--time-tiers P1D")
   * @param filesPerTier HFiles one tier adds to a region per family (the write's files per region
   *     without tiers: in-order tasks × salt buckets, or sorted sub-partitions)
   * @param limit the most HFiles a region may get per family
   * @param limitName where the limit comes from, for messages
   * @throws RekeyException (usage) when not even two tiers fit
   */
  public static TimeTiers choose(
      Duration width,
      String asked,
      long min,
      long max,
      int filesPerTier,
      int limit,
      String limitName) {
    long w = width.toMillis();
    if (w <= 0) {
      throw RekeyException.usage("%s: a tier must be at least a millisecond wide", asked);
    }
    if (max < min) {
      return new TimeTiers(0, 0, 1, asked + ": the source holds no cells, one file per slot");
    }
    long wanted = tiersOver(w, min, max);
    if (wanted <= 1) {
      return new TimeTiers(
          0, 0, 1, asked + ": every cell falls into one tier, one file per slot as without tiers");
    }
    int fit = limit / Math.max(1, filesPerTier);
    if (fit < 2) {
      throw RekeyException.usage(
          "Cannot write time tiers (%s): each tier adds %d HFile(s) per region and family, so even"
              + " two tiers would make %d, over the limit of %d (%s). Write fewer files per tier"
              + " (a lower --splits-per-region, or --write-path sort), raise the limit, or leave"
              + " out --time-tiers",
          asked, filesPerTier, 2 * filesPerTier, limit, limitName);
    }
    if (wanted <= fit) {
      return new TimeTiers(
          w,
          Math.floorDiv(min, w),
          (int) wanted,
          String.format(
              "%s: %d tiers x %d file(s) = %d HFiles per region and family (limit %d, %s)",
              asked, wanted, filesPerTier, wanted * filesPerTier, limit, limitName));
    }
    // the smallest multiple of the width that fits: tiers over the span shrink as m grows
    long m = Math.max(2, (wanted + fit - 1) / fit - 1);
    while (tiersOver(w * m, min, max) > fit) {
      m++;
    }
    long wm = w * m;
    long n = tiersOver(wm, min, max);
    return new TimeTiers(
        wm,
        Math.floorDiv(min, wm),
        (int) n,
        String.format(
            "%s would make %d tiers x %d file(s) = %d HFiles per region and family, over the limit"
                + " of %d (%s): tiers of %s instead, %d x %d = %d",
            asked,
            wanted,
            filesPerTier,
            wanted * filesPerTier,
            limit,
            limitName,
            TierRequest.iso(Duration.ofMillis(wm)),
            n,
            filesPerTier,
            n * filesPerTier));
  }

  /** "tiers of P1D from 2026-11-01T00:00Z (30)", for the plan. */
  public String describe() {
    if (!tiered()) {
      return "one file per slot (no time tiers)";
    }
    return String.format(
        "%d time tiers of %s from %s",
        count,
        TierRequest.iso(Duration.ofMillis(widthMillis)),
        java.time.Instant.ofEpochMilli(startOf(0)));
  }
}

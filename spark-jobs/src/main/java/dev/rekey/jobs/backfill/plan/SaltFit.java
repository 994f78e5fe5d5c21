package dev.rekey.jobs.backfill.plan;

import dev.rekey.rowkey.Hex;
import java.util.Optional;

/**
 * Whether a salt layout's buckets fit the target table's regions: a salt only spreads writes if the
 * regions split the buckets evenly. 32 buckets written into a table pre-split for 16 put buckets
 * 15..31 into its last region (a hotspot with more than half of the rows); 16 buckets into a table
 * pre-split for 32 leave half of the regions empty. Pure.
 */
final class SaltFit {
  private SaltFit() {}

  /**
   * Why {@code buckets} salt buckets do not fit the regions, with the numbers; empty when they do.
   */
  static Optional<String> problem(RegionBoundaries live, int buckets, String layoutName) {
    if (buckets <= 1) {
      return Optional.empty();
    }
    int regionsWithBuckets = 0;
    int firstEmpty = -1;
    int worst = -1;
    int worstCount = 0;
    for (int r = 0; r < live.count(); r++) {
      int n = bucketsIn(live, r, buckets);
      if (n == 0) {
        firstEmpty = firstEmpty < 0 ? r : firstEmpty;
        continue;
      }
      regionsWithBuckets++;
      if (n > worstCount) {
        worst = r;
        worstCount = n;
      }
    }
    String layout =
        String.format(
            "layout %s salts keys into %d buckets (first byte 00..%s), but ",
            layoutName, buckets, Hex.of(new byte[] {(byte) (buckets - 1)}));
    if (firstEmpty >= 0) {
      int empty = live.count() - regionsWithBuckets;
      return Optional.of(
          layout
              + String.format(
                  "%d of the table's %d regions start after the last bucket and would stay empty"
                      + " (the first is region %d from %s)",
                  empty, live.count(), firstEmpty, Hex.of(live.start(firstEmpty))));
    }
    int even = (buckets + regionsWithBuckets - 1) / regionsWithBuckets;
    if (worstCount > even) {
      return Optional.of(
          layout
              + String.format(
                  "the table's %d regions do not split them evenly: region %d [%s, %s) takes %d of"
                      + " the %d buckets, where an even split puts at most %d in a region (a"
                      + " hotspot of about %.1fx)",
                  live.count(),
                  worst,
                  Hex.of(live.start(worst)),
                  Hex.of(live.end(worst)),
                  worstCount,
                  buckets,
                  even,
                  worstCount / (double) even));
    }
    return Optional.empty();
  }

  /**
   * How many salt buckets (keys starting with byte b, b < buckets) region r's key range reaches
   * into.
   */
  static int bucketsIn(RegionBoundaries live, int r, int buckets) {
    byte[] start = live.start(r);
    byte[] end = live.end(r);
    int first = start.length == 0 ? 0 : start[0] & 0xff;
    // an end key of exactly [b] stops before bucket b; a longer one reaches into it
    int last = end.length == 0 ? 255 : end.length == 1 ? (end[0] & 0xff) - 1 : end[0] & 0xff;
    last = Math.min(last, buckets - 1);
    return first > last ? 0 : last - first + 1;
  }
}

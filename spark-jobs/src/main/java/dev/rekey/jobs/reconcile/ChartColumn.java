package dev.rekey.jobs.reconcile;

import java.util.ArrayList;
import java.util.List;

/**
 * One column of the reconcile chart: {@code buckets} consecutive buckets summed, and how many of
 * them differ. A chart is a few hundred pixels wide; two years of hours is 17,520 buckets, so wide
 * ranges are summed into columns.
 *
 * @param firstMismatch the start of the first differing bucket of the column (ISO), or null
 */
public record ChartColumn(
    long start,
    long end,
    int buckets,
    long oldRows,
    long newRows,
    int mismatched,
    String firstMismatch) {

  /**
   * The columns of a chart at most {@code maxColumns} wide: one bucket each if they fit, else equal
   * groups.
   */
  public static List<ChartColumn> of(List<TimeBucketComparison> all, int maxColumns) {
    int per = Math.max(1, (all.size() + maxColumns - 1) / maxColumns);
    List<ChartColumn> cols = new ArrayList<>();
    for (int i = 0; i < all.size(); i += per) {
      List<TimeBucketComparison> group = all.subList(i, Math.min(all.size(), i + per));
      long o = 0;
      long n = 0;
      int bad = 0;
      String first = null;
      for (TimeBucketComparison b : group) {
        o += b.old().rows();
        n += b.neu().rows();
        if (!b.matches()) {
          bad++;
          if (first == null) {
            first = TimeSpec.iso(b.start());
          }
        }
      }
      cols.add(
          new ChartColumn(
              group.get(0).start(),
              group.get(group.size() - 1).end(),
              group.size(),
              o,
              n,
              bad,
              first));
    }
    return cols;
  }

  public String label() {
    return buckets == 1 ? TimeSpec.iso(start) : TimeSpec.iso(start) + " .. " + TimeSpec.iso(end);
  }
}

package dev.rekey.client;

import dev.rekey.rowkey.BucketRange;
import dev.rekey.rowkey.FieldMatch;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.KeyRangePlan;
import dev.rekey.rowkey.KeyRangePlanner;
import java.util.List;
import java.util.Optional;

/**
 * How a {@link ReadQuery} is served on one layout: the scans to run (one per bucket, or one), how
 * many leading key bytes the merge skips (the salt or hash prefix, and a sub-bucket), or why the
 * layout cannot serve the query. The ranges and refusals come from the rowkey library's {@link
 * KeyRangePlanner}, which the jobs plan with too; this adds what a merged read needs (limit,
 * direction).
 *
 * @param ranges the scans, in bucket order (empty for an empty window)
 * @param mergeOffset bytes at the start of each key the merge skips (the salt or hash prefix; for a
 *     read over sub-buckets also the given fields and the sub-bucket byte)
 * @param limit rows wanted (0: all)
 * @param reverse descending natural order
 * @param refusal why the query cannot be served, or null
 * @param matches fields the ranges do not fix, checked on each row by the region servers (a row
 *     filter per scan)
 */
public record ScanPlan(
    List<BucketRange> ranges,
    int mergeOffset,
    int limit,
    boolean reverse,
    String refusal,
    List<FieldMatch> matches) {
  public ScanPlan {
    ranges = List.copyOf(ranges);
    matches = List.copyOf(matches);
  }

  /** The scans of the query on this layout, or the refusal. */
  public static ScanPlan of(KeyLayout layout, ReadQuery q) {
    KeyRangePlan p =
        KeyRangePlanner.plan(
            layout,
            q.leading(),
            q.hasWindow()
                ? new KeyRangePlanner.Window(q.from().getAsLong(), q.to().getAsLong())
                : null);
    return new ScanPlan(
        p.ranges(), p.mergeOffset(), q.limit(), q.reverse(), p.refusal().orElse(null), p.matches());
  }

  public boolean servable() {
    return refusal == null;
  }

  public Optional<String> refusalReason() {
    return Optional.ofNullable(refusal);
  }
}

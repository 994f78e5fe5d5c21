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
 * @param keys the rowkey library's plan: the scans in bucket order (empty for an empty window), the
 *     bytes at the start of each key the merge skips (the salt or hash prefix; for a read over
 *     sub-buckets also the given fields and the sub-bucket byte), the fields the ranges do not fix
 *     (a row filter per scan), or why the layout cannot serve the query
 * @param limit rows wanted (0: all)
 * @param reverse descending natural order
 */
public record ScanPlan(KeyRangePlan keys, int limit, boolean reverse) {

  /** The scans of the query on this layout, or the refusal. */
  public static ScanPlan of(KeyLayout layout, ReadQuery q) {
    return new ScanPlan(
        KeyRangePlanner.plan(
            layout,
            q.leading(),
            q.hasWindow()
                ? new KeyRangePlanner.Window(q.from().getAsLong(), q.to().getAsLong())
                : null),
        q.limit(),
        q.reverse());
  }

  public List<BucketRange> ranges() {
    return keys.ranges();
  }

  public int mergeOffset() {
    return keys.mergeOffset();
  }

  public List<FieldMatch> matches() {
    return keys.matches();
  }

  public boolean servable() {
    return keys.servable();
  }

  /** Why the query cannot be served, or null. */
  public String refusal() {
    return keys.refusal().orElse(null);
  }

  public Optional<String> refusalReason() {
    return keys.refusal();
  }
}

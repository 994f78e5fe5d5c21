package dev.rekey.client;

import java.util.List;
import java.util.Optional;

/**
 * How a {@link ReadQuery} is served on one layout: the scans to run (one per bucket, or one), how
 * many leading key bytes the merge skips (the salt or hash prefix), or why the layout cannot serve
 * the query. A value, so the reasons are testable without a server.
 *
 * @param ranges the scans, in bucket order (empty for an empty window)
 * @param prefixLength bytes of prefix before the natural key (the merge compares what follows)
 * @param limit rows wanted (0: all)
 * @param reverse descending natural order
 * @param refusal why the query cannot be served, or null
 */
public record ReadPlan(
    List<BucketRange> ranges, int prefixLength, int limit, boolean reverse, String refusal) {
  public ReadPlan {
    ranges = List.copyOf(ranges);
  }

  static ReadPlan refused(String reason) {
    return new ReadPlan(List.of(), 0, 0, false, reason);
  }

  public boolean servable() {
    return refusal == null;
  }

  public Optional<String> refusalReason() {
    return Optional.ofNullable(refusal);
  }
}

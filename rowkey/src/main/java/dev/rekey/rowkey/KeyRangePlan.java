package dev.rekey.rowkey;

import java.util.List;
import java.util.Optional;

/**
 * The key ranges a read of one layout needs ({@link KeyRangePlanner}), or why the layout cannot
 * serve the read as key ranges. A value, so the decisions and their reasons are tested without a
 * server.
 *
 * @param ranges the ranges in bucket order, not overlapping (empty for an empty window)
 * @param prefixLength bytes of salt or hash prefix before the natural key: a merge of the ranges in
 *     natural order compares what follows
 * @param what the read, for messages: "time window", "[userId] and time window", "the whole table"
 * @param layoutName the layout's name, for messages
 * @param reason why the layout cannot serve the read (a clause, no layout name), or null
 * @param mergeOffset bytes at the start of every key that a merge of the ranges in natural order
 *     skips: the prefix, and for a read over sub-buckets also the given fields and the sub-bucket
 *     byte (the ranges differ there; the rows' order is in what follows)
 * @param matches fields the ranges do not fix, to check on each of their rows (empty: every row of
 *     the ranges is the read's)
 */
public record KeyRangePlan(
    List<BucketRange> ranges,
    int prefixLength,
    String what,
    String layoutName,
    String reason,
    int mergeOffset,
    List<FieldMatch> matches) {
  public KeyRangePlan {
    ranges = List.copyOf(ranges);
    matches = List.copyOf(matches);
  }

  public boolean servable() {
    return reason == null;
  }

  /** "Cannot read layout L by W: reason", or empty when servable. */
  public Optional<String> refusal() {
    return servable()
        ? Optional.empty()
        : Optional.of("Cannot read layout " + layoutName + " by " + what + ": " + reason);
  }

  /** The ranges without their buckets. */
  public List<KeyRange> keyRanges() {
    return ranges.stream().map(BucketRange::range).toList();
  }
}

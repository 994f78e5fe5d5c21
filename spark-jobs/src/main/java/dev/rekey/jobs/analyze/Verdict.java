package dev.rekey.jobs.analyze;

import java.util.List;

/**
 * What analyze concludes.
 *
 * @param hotspot true if writes concentrate on one region or server
 * @param reasons the figures behind it, one sentence each
 * @param shape recommended key shape: salt, hash_prefix or none
 * @param buckets recommended bucket count N (salt), else 0
 * @param regions recommended region count for the new table
 * @param recommendation the advice in sentences (trade-offs of salting and hash prefixes,
 *     arithmetic)
 */
public record Verdict(
    boolean hotspot,
    List<String> reasons,
    String shape,
    int buckets,
    int regions,
    List<String> recommendation) {}

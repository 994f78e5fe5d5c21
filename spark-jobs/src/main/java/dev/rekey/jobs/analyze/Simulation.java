package dev.rekey.jobs.analyze;

import java.util.List;

/**
 * The sampled keys, rekeyed with a proposed layout and placed in proposed regions: predicted rows
 * per region and the skew.
 *
 * @param layout the proposed layout (or "the current keys")
 * @param splits how the split points were chosen
 * @param regions proposed region count
 * @param sampledRows sampled keys placed
 * @param unconvertible sampled keys the current layout could not decode or the proposed one encode
 * @param firstProblem the first such problem, or null
 * @param predictedRows rows per proposed region, scaled from the sample to the rows read
 * @param maxOverMean busiest region ÷ mean (1 = even)
 * @param emptyRegions proposed regions no sampled key falls in
 * @param regionsFor90Percent how many of the busiest regions hold 90% of the rows
 * @param hexSplitsOnRawKeys HexStringSplit-style boundaries on keys that start with raw bytes
 * @param warnings what is wrong with the proposal, in words
 */
public record Simulation(
    String layout,
    String splits,
    int regions,
    long sampledRows,
    long unconvertible,
    String firstProblem,
    List<Long> predictedRows,
    double maxOverMean,
    int emptyRegions,
    int regionsFor90Percent,
    boolean hexSplitsOnRawKeys,
    List<String> warnings) {}

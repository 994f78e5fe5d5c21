package dev.rekey.jobs.analyze;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;

/**
 * What analyze concludes.
 *
 * @param outcome a hotspot, none, or too few rows to tell
 * @param headline the outcome as the console's {@code verdict:} line says it ("HOTSPOT", "no
 *     hotspot", "not enough recent rows to judge: 1 sampled, need 30")
 * @param reasons the figures behind it, one sentence each
 * @param shape recommended key shape: salt, hash_prefix or none (keep the key)
 * @param buckets recommended bucket count N (salt), else 0
 * @param regions recommended region count for the new table
 * @param recommendation the advice in sentences (trade-offs of salting and hash prefixes,
 *     arithmetic)
 */
public record Verdict(
    Outcome outcome,
    String headline,
    List<String> reasons,
    String shape,
    int buckets,
    int regions,
    List<String> recommendation) {

  /** What the figures allow analyze to say. */
  public enum Outcome {
    /** Writes concentrate on one region or one of several servers, or append to the last region. */
    HOTSPOT,
    /** Enough rows were sampled and none of the hotspot rules holds. */
    NO_HOTSPOT,
    /** Too few rows (in the sample, or in its recent window) to tell a hotspot from chance. */
    CANNOT_JUDGE
  }

  /** True for a hotspot; kept in analyze.json as {@code hotspot} for the notebooks. */
  @JsonProperty("hotspot")
  public boolean hotspot() {
    return outcome == Outcome.HOTSPOT;
  }

  /** This verdict with one more reason, made a hotspot when {@code hot}. */
  public Verdict withReason(String reason, boolean hot) {
    List<String> more = new ArrayList<>(reasons);
    more.add(reason);
    return hot && !hotspot()
        ? new Verdict(Outcome.HOTSPOT, "HOTSPOT", more, shape, buckets, regions, recommendation)
        : new Verdict(outcome, headline, more, shape, buckets, regions, recommendation);
  }
}

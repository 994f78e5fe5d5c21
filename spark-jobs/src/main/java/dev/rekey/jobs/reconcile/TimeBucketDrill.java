package dev.rekey.jobs.reconcile;

import java.io.Serializable;
import java.util.List;

/**
 * The drill-down of one mismatched bucket: how many natural keys differ, by kind, and up to
 * --samples of them (smallest natural keys first, so reruns show the same samples).
 */
public record TimeBucketDrill(
    int bucket, long missingInNew, long extraInNew, long contentDiffers, List<Sample> samples)
    implements Serializable {

  public long differingKeys() {
    return missingInNew + extraInNew + contentDiffers;
  }
}

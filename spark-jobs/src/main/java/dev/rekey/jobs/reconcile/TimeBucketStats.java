package dev.rekey.jobs.reconcile;

import java.io.Serializable;

/**
 * Rows, cells and the summed digest of one side in one bucket; merged by addition (Spark reduce).
 */
public record TimeBucketStats(long rows, long cells, Digest128 digest) implements Serializable {
  public static final TimeBucketStats EMPTY = new TimeBucketStats(0, 0, Digest128.ZERO);

  public static TimeBucketStats row(long cells, Digest128 digest) {
    return new TimeBucketStats(1, cells, digest);
  }

  public TimeBucketStats plus(TimeBucketStats o) {
    return new TimeBucketStats(rows + o.rows, cells + o.cells, digest.plus(o.digest));
  }
}

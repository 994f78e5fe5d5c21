package dev.rekey.jobs.reconcile;

import java.io.Serializable;

/**
 * Rows, cells and the summed digest of one side in one bucket; merged by addition (Spark reduce).
 */
public record BucketStats(long rows, long cells, Digest128 digest) implements Serializable {
  public static final BucketStats EMPTY = new BucketStats(0, 0, Digest128.ZERO);

  public static BucketStats row(long cells, Digest128 digest) {
    return new BucketStats(1, cells, digest);
  }

  public BucketStats plus(BucketStats o) {
    return new BucketStats(rows + o.rows, cells + o.cells, digest.plus(o.digest));
  }
}

package dev.rekey.jobs.backfill.write;

import dev.rekey.jobs.backfill.plan.RegionBoundaries;
import dev.rekey.jobs.backfill.plan.TimeTiers;
import java.io.Serializable;

/**
 * How a target's HFiles are cut (the in-order write's {@link InOrderHFiles}): one slot per live
 * target region and, when the target key is salted, per salt bucket — a task's rows arrive in
 * target order within each slot — and in each slot a file per family and time tier ({@link
 * TimeTiers}: a cell goes to its tier's file, each file still in cell order), rolled at {@code
 * maxFileSize}.
 */
record HFileSlots(RegionBoundaries live, boolean salted, long maxFileSize, TimeTiers tiers)
    implements Serializable {

  /** Salt buckets a region's rows can come in: one per value of a key's first byte. */
  private static final int SALT_BUCKETS = 256;

  int regions() {
    return live.count();
  }

  /** The target region of a key. */
  int regionOf(byte[] key) {
    return live.regionOf(key);
  }

  /** The slots of one region. */
  int buckets() {
    return salted ? SALT_BUCKETS : 1;
  }

  /** A key's slot within its region: its salt byte, or 0 unsalted. */
  int bucketOf(byte[] key) {
    return salted ? key[0] & 0xff : 0;
  }
}

package dev.rekey.jobs.scan;

import dev.rekey.jobs.common.DecodedRow;
import java.io.Serializable;

/** An element of the scan's RDD: a decoded row, or (once per partition, last) that partition's stats. */
record ScanRecord(int partition, DecodedRow row, RegionStats stats) implements Serializable {
  boolean isStats() {
    return stats != null;
  }
}

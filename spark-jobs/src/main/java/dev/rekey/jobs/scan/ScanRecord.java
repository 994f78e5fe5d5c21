package dev.rekey.jobs.scan;

import java.io.Serializable;

/**
 * An element of the scan's cached RDD: a block of rows ({@link RowBlock}), or (once per partition,
 * last) that partition's stats. A key is decoded again, cheaply, when a report reads the views.
 */
record ScanRecord(int partition, RowBlock rows, RegionStats stats) implements Serializable {
  boolean isStats() {
    return stats != null;
  }
}

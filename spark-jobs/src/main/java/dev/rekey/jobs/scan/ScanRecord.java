package dev.rekey.jobs.scan;

import dev.rekey.jobs.common.PackedCells;
import java.io.Serializable;

/**
 * An element of the scan's cached RDD: a row's cells packed into one array ({@link PackedCells}), or (once per
 * partition, last) that partition's stats. Packed because the rows are cached for the reports: decoded rows cached as
 * objects (~20 per row) made Spark's memory-store sizing and the garbage collector most of the scan's CPU in a JFR
 * profile of bench/scan; a key is decoded again, cheaply, when a report reads the views.
 */
record ScanRecord(int partition, byte[] cells, RegionStats stats) implements Serializable {
  boolean isStats() {
    return stats != null;
  }
}

package dev.rekey.jobs.backfill.write;

import dev.rekey.jobs.backfill.plan.RegionBoundaries;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.Partitioner;

/**
 * Partition = target region × k sub-partitions: region by the live boundaries, sub-partition by a
 * hash of the row, so a row (with all its cells) lands in one partition (one HFile writer) and
 * parallelism is regions × k.
 */
public final class TargetPartitioner extends Partitioner {
  private static final long serialVersionUID = 1L;
  private final RegionBoundaries regions;
  private final int k;

  public TargetPartitioner(RegionBoundaries regions, int k) {
    this.regions = regions;
    this.k = k;
  }

  @Override
  public int numPartitions() {
    return regions.count() * k;
  }

  @Override
  public int getPartition(Object key) {
    byte[] row = (byte[]) key;
    int region = regions.regionOf(row);
    if (k == 1) {
      return region;
    }
    int h = Bytes.hashCode(row);
    return region * k + Math.floorMod(h, k);
  }
}

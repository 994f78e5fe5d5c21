package dev.rekey.jobs.compare;

import java.util.Arrays;
import org.apache.spark.Partitioner;

/**
 * The compare's shuffle partitions by natural key: a byte array key hashed by its content (a
 * HashPartitioner would hash the array's identity), so both sides' rows of one key meet in one
 * partition.
 */
final class NaturalKeyPartitioner extends Partitioner {
  private static final long serialVersionUID = 1L;
  private final int partitions;

  NaturalKeyPartitioner(int partitions) {
    this.partitions = partitions;
  }

  @Override
  public int numPartitions() {
    return partitions;
  }

  @Override
  public int getPartition(Object key) {
    return Math.floorMod(Arrays.hashCode((byte[]) key), partitions);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NaturalKeyPartitioner p && p.partitions == partitions;
  }

  @Override
  public int hashCode() {
    return partitions;
  }
}

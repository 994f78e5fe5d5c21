package dev.rekey.jobs.common;

import org.apache.spark.Partition;
import org.apache.spark.rdd.PartitionCoalescer;
import org.apache.spark.rdd.PartitionGroup;
import org.apache.spark.rdd.RDD;
import scala.Option;

/**
 * Groups a read's partitions (in key order) into runs of consecutive partitions, one run per task,
 * so that a task reads its partitions one after the other in key order. Spark's own coalescing
 * groups by locality and would interleave them.
 */
public final class KeyOrderRuns implements PartitionCoalescer, scala.Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * The run of partition {@code p} when {@code parts} partitions go into {@code runs} runs of
   * near-equal length (the first {@code parts % runs} runs one longer), in order. Pure.
   */
  public static int runOf(int p, int parts, int runs) {
    int n = Math.max(1, Math.min(runs, parts));
    int base = parts / n;
    int longer = parts % n; // runs 0..longer-1 hold base + 1
    int cut = longer * (base + 1);
    return p < cut ? p / (base + 1) : longer + (p - cut) / base;
  }

  @Override
  public PartitionGroup[] coalesce(int maxPartitions, RDD<?> parent) {
    Partition[] parts = parent.partitions();
    int n = Math.max(1, Math.min(maxPartitions, parts.length));
    PartitionGroup[] groups = new PartitionGroup[n];
    for (int g = 0; g < n; g++) {
      groups[g] = new PartitionGroup(Option.empty());
    }
    for (int p = 0; p < parts.length; p++) {
      groups[runOf(p, parts.length, n)].partitions().$plus$eq(parts[p]);
    }
    return groups;
  }
}

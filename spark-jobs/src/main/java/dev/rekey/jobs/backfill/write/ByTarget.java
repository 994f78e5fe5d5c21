package dev.rekey.jobs.backfill.write;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.Partitioner;

/**
 * The shuffle partitioner of several sorted targets ({@link SortedWrite}): partition = their
 * (region × k) partitions one after the other; a record's first byte names its target, the rest is
 * its target key.
 */
final class ByTarget extends Partitioner {
  private static final long serialVersionUID = 1L;
  private final int[] targetOfIndex;
  private final int[] offset;
  private final int[] targetIndex;
  private final List<TargetPartitioner> partitioners;
  private final int total;

  ByTarget(List<Integer> targets, List<TargetPartitioner> partitioners) {
    this.partitioners = partitioners;
    int max = targets.stream().mapToInt(Integer::intValue).max().orElse(0);
    this.targetOfIndex = new int[max + 1];
    Arrays.fill(targetOfIndex, -1);
    this.offset = new int[partitioners.size() + 1];
    for (int i = 0; i < partitioners.size(); i++) {
      targetOfIndex[targets.get(i)] = i;
      offset[i + 1] = offset[i] + partitioners.get(i).numPartitions();
    }
    this.total = offset[partitioners.size()];
    this.targetIndex = targets.stream().mapToInt(Integer::intValue).toArray();
  }

  @Override
  public int numPartitions() {
    return total;
  }

  @Override
  public int getPartition(Object key) {
    byte[] k = (byte[]) key;
    int i = targetOfIndex[k[0]];
    return offset[i] + partitioners.get(i).getPartition(Arrays.copyOfRange(k, 1, k.length));
  }

  /** The target (its index among all targets) whose rows partition {@code p} holds. */
  int targetOf(int p) {
    for (int i = 0; i < partitioners.size(); i++) {
      if (p < offset[i + 1]) {
        return targetIndex[i];
      }
    }
    throw new IllegalArgumentException("no target for partition " + p);
  }
}

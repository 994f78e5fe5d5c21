package dev.rekey.jobs.analyze;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * What one Spark partition sends back: how many rows it read, per region, and a uniform reservoir
 * sample of them (Algorithm R, seeded by the partition index so a rerun draws the same sample).
 */
public final class PartitionSample implements Serializable {
  private static final long serialVersionUID = 1L;
  private final long[] rowsPerRegion;
  private final ArrayList<KeySample> reservoir;
  private long rows;
  private final int capacity;
  private final Random random;

  public PartitionSample(int regions, int capacity, long seed) {
    this.rowsPerRegion = new long[regions];
    this.reservoir = new ArrayList<>(Math.min(capacity, 1 << 16));
    this.capacity = capacity;
    this.random = new Random(seed);
  }

  public void add(KeySample s, int region) {
    rowsPerRegion[region]++;
    rows++;
    if (reservoir.size() < capacity) {
      reservoir.add(s);
    } else {
      long j = (long) (random.nextDouble() * rows);
      if (j < capacity) {
        reservoir.set((int) j, s);
      }
    }
  }

  public long rows() {
    return rows;
  }

  public long[] rowsPerRegion() {
    return rowsPerRegion;
  }

  public List<KeySample> reservoir() {
    return reservoir;
  }

  /**
   * A sample of about {@code target} rows over all partitions, each partition contributing in
   * proportion to its rows (its reservoir is a uniform sample of it, so the union is a uniform
   * sample of the whole).
   */
  public static List<KeySample> combine(List<PartitionSample> parts, int target) {
    long total = parts.stream().mapToLong(PartitionSample::rows).sum();
    List<KeySample> out = new ArrayList<>();
    if (total == 0) {
      return out;
    }
    for (PartitionSample p : parts) {
      int take = (int) Math.min(p.reservoir.size(), Math.round((double) target * p.rows / total));
      if (total <= target) {
        take = p.reservoir.size();
      }
      // the reservoir keeps key order until it fills: shuffle before taking part of it, or the part
      // is the region's head
      List<KeySample> shuffled = new ArrayList<>(p.reservoir);
      java.util.Collections.shuffle(shuffled, new Random(p.rows * 31 + shuffled.size()));
      out.addAll(shuffled.subList(0, take));
    }
    return out;
  }
}

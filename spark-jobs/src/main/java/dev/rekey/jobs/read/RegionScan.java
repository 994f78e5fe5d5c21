package dev.rekey.jobs.read;

import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyRange;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one region's task read: the region's boundaries, the key ranges it read (hex; one open range
 * when the read was not pruned), and the rows its scanners returned.
 *
 * @param region index in key order
 * @param startHex the region's start key ("" = the first region)
 * @param endHex the region's end key ("" = the last region)
 */
public record RegionScan(
    int region, String startHex, String endHex, List<KeyRange> ranges, long rowsScanned) {
  public RegionScan {
    ranges = List.copyOf(ranges);
  }

  /**
   * Rows one partition's scanners returned, and its first row key (null if none): places it in its
   * region.
   */
  public record PartitionCount(int partition, byte[] firstKey, long rows)
      implements java.io.Serializable {}

  /**
   * Per region (sorted boundaries, {@code starts[i]..ends[i]}), the plan's ranges in it and the
   * rows of the partitions whose first key falls in it (a partition that read nothing adds
   * nothing). Counts of one partition seen more than once (the rows read again by a second action)
   * are taken once.
   */
  public static List<RegionScan> place(
      List<byte[]> starts,
      List<byte[]> ends,
      ReadPlan plan,
      java.util.Collection<PartitionCount> counts) {
    Map<Integer, PartitionCount> byPartition = new java.util.TreeMap<>();
    for (PartitionCount c : counts) {
      byPartition.put(c.partition(), c);
    }
    long[] rows = new long[starts.size()];
    for (PartitionCount c : byPartition.values()) {
      if (c.firstKey() != null && !starts.isEmpty()) {
        rows[regionOf(starts, c.firstKey())] += c.rows();
      }
    }
    List<RegionScan> out = new java.util.ArrayList<>(starts.size());
    for (int i = 0; i < starts.size(); i++) {
      out.add(
          new RegionScan(
              i,
              Hex.of(starts.get(i)),
              Hex.of(ends.get(i)),
              plan.within(starts.get(i), ends.get(i)),
              rows[i]));
    }
    return out;
  }

  /** Index of the last start key ≤ key (unsigned); the first start key is the smallest. */
  static int regionOf(List<byte[]> starts, byte[] key) {
    int lo = 0;
    int hi = starts.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (java.util.Arrays.compareUnsigned(starts.get(mid), key) <= 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /** As summary.json and reconcile.json write it. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("region", region);
    m.put("start", startHex);
    m.put("end", endHex);
    m.put(
        "ranges",
        ranges.stream()
            .map(
                r -> {
                  Map<String, String> x = new LinkedHashMap<>();
                  x.put("start", Hex.of(r.start()));
                  x.put("stop", Hex.of(r.stop()));
                  return x;
                })
            .toList());
    m.put("rowsScanned", rowsScanned);
    return m;
  }
}

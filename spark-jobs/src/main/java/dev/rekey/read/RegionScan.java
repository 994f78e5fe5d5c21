package dev.rekey.read;

import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyRange;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one region's task read: the region's boundaries, the key ranges it read (hex; one open range
 * when the read was not pruned), the rows its scanners returned, and the store files it read and
 * skipped by time range.
 *
 * @param region index in key order
 * @param startHex the region's start key ("" = the first region)
 * @param endHex the region's end key ("" = the last region)
 * @param storeFiles the store files rekey's snapshot reader read and skipped ({@link StoreFiles});
 *     null when it opened none itself: a live table (the RegionServers skip files by the scan's
 *     time range), a region HBase's snapshot reader took whole (it skips them too), a region no key
 *     range of the read meets
 */
public record RegionScan(
    int region,
    String startHex,
    String endHex,
    List<KeyRange> ranges,
    long rowsScanned,
    StoreFiles storeFiles) {
  public RegionScan {
    ranges = List.copyOf(ranges);
  }

  public RegionScan(
      int region, String startHex, String endHex, List<KeyRange> ranges, long rowsScanned) {
    this(region, startHex, endHex, ranges, rowsScanned, null);
  }

  /**
   * Rows one partition's scanners returned, and its first row key (null if none): places it in its
   * region. A snapshot split also names its region's start key and what its reader did with the
   * region's store files (null if unknown).
   */
  public record PartitionCount(
      int partition, byte[] firstKey, long rows, byte[] regionStart, StoreFiles storeFiles)
      implements java.io.Serializable {
    public PartitionCount(int partition, byte[] firstKey, long rows) {
      this(partition, firstKey, rows, null, null);
    }
  }

  /**
   * Per region (sorted boundaries, {@code starts[i]..ends[i]}), the plan's ranges in it and the
   * rows of the partitions whose first key falls in it (a partition that read nothing adds
   * nothing). Counts of one partition seen more than once (the rows read again by a second action)
   * are taken once. A region's store files are those its first split reports: every split of a
   * region opens the same files for the same window.
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
    StoreFiles[] files = new StoreFiles[starts.size()];
    for (PartitionCount c : byPartition.values()) {
      if (c.firstKey() != null && !starts.isEmpty()) {
        rows[regionOf(starts, c.firstKey())] += c.rows();
      }
      if (c.regionStart() != null && c.storeFiles() != null && !starts.isEmpty()) {
        int r = regionOf(starts, c.regionStart());
        files[r] = files[r] != null ? files[r] : c.storeFiles();
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
              rows[i],
              files[i]));
    }
    return out;
  }

  /**
   * The store files of every region that reports them, added up (null if none does): what a job
   * prints under its per-region table.
   */
  public static StoreFiles totalStoreFiles(List<RegionScan> scans) {
    StoreFiles sum = null;
    for (RegionScan s : scans) {
      if (s.storeFiles() != null) {
        sum = sum == null ? s.storeFiles() : sum.plus(s.storeFiles());
      }
    }
    return sum;
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
    if (storeFiles != null) {
      m.put("storeFiles", storeFiles.toMap());
    }
    return m;
  }
}

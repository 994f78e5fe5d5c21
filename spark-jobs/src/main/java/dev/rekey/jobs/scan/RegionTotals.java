package dev.rekey.jobs.scan;

import dev.rekey.rowkey.Hex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Rows, cells, bytes and time of one region: the sum of its partitions' {@link RegionStats}.
 *
 * @param region region index in key order
 * @param startKeyHex the region's start key in hex ("" = first region, or unknown)
 * @param partitions Spark partitions that read it
 * @param millis summed task time of those partitions
 */
public record RegionTotals(
    int region,
    String startKeyHex,
    int partitions,
    long rows,
    long cells,
    long bytes,
    long millis,
    long undecodable) {

  /**
   * Groups partition stats by region, in key order. When Spark planned exactly {@code regions × k}
   * partitions (always for snapshots), partition p read region p / k of the input format's region
   * list ({@code startKeys} in that order: key order, for a live table and a snapshot alike).
   * Otherwise (TableInputFormat cut a small region into fewer splits) a partition is placed by its
   * first key among the sorted start keys, and an empty one joins the region before it.
   *
   * @param startKeys the regions' start keys in the input format's order, or null if unknown (then
   *     p / k is used)
   */
  public static List<RegionTotals> of(
      List<RegionStats> parts, int regions, int k, List<byte[]> startKeys) {
    int[] regionOf = new int[parts.size()];
    boolean exact = parts.size() == regions * k || startKeys == null;
    List<byte[]> sorted =
        startKeys == null ? null : startKeys.stream().sorted(Arrays::compareUnsigned).toList();
    int last = 0;
    for (int i = 0; i < parts.size(); i++) {
      RegionStats s = parts.get(i);
      if (exact) {
        int r = Math.min(regions - 1, s.partition() / k);
        regionOf[i] = sorted == null ? r : sorted.indexOf(startKeys.get(r));
      } else if (s.firstKeyHex().isEmpty()) {
        regionOf[i] = last;
      } else {
        regionOf[i] = regionContaining(Hex.parse(s.firstKeyHex()), sorted);
      }
      last = regionOf[i];
    }
    List<RegionTotals> out = new ArrayList<>();
    for (int r = 0; r < regions; r++) {
      int n = 0;
      long rows = 0;
      long cells = 0;
      long bytes = 0;
      long ms = 0;
      long bad = 0;
      for (int i = 0; i < parts.size(); i++) {
        if (regionOf[i] == r) {
          RegionStats s = parts.get(i);
          n++;
          rows += s.rows();
          cells += s.cells();
          bytes += s.bytes();
          ms += s.millis();
          bad += s.undecodable();
        }
      }
      String start = sorted != null && r < sorted.size() ? Hex.of(sorted.get(r)) : "";
      out.add(new RegionTotals(r, start, n, rows, cells, bytes, ms, bad));
    }
    return out;
  }

  /**
   * Index of the last start key ≤ key (unsigned byte order); start keys are sorted, the first is
   * empty.
   */
  static int regionContaining(byte[] key, List<byte[]> startKeys) {
    int found = 0;
    for (int i = 0; i < startKeys.size(); i++) {
      if (Arrays.compareUnsigned(startKeys.get(i), key) <= 0) {
        found = i;
      } else {
        break;
      }
    }
    return found;
  }
}

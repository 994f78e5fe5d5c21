package dev.rekey.jobs.scan;

import java.io.Serializable;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one scan partition (a region, or one of its k splits) read: computed by the task itself and
 * returned as part of the RDD's output, so a retried or speculative task replaces its stats instead
 * of adding to them (an accumulator would count both attempts).
 *
 * @param partition Spark partition index
 * @param firstKeyHex the partition's first decoded or undecodable row key in hex ("" if it read
 *     nothing): places the partition in its region
 * @param rows rows decoded
 * @param cells cells in those rows
 * @param bytes key + family + qualifier + value + 8 per cell
 * @param millis time from the first to the last row of the partition
 * @param undecodable rows whose key the layout does not decode (not in the views)
 * @param samples up to N undecodable keys as "hex: reason"
 */
public record RegionStats(
    int partition,
    String firstKeyHex,
    long rows,
    long cells,
    long bytes,
    long millis,
    long undecodable,
    List<String> samples)
    implements Serializable {

  /**
   * One stats record per partition: the last one seen for an index wins (attempts of one task are
   * identical).
   */
  public static List<RegionStats> dedupe(Collection<RegionStats> all) {
    Map<Integer, RegionStats> byPartition = new TreeMap<>();
    for (RegionStats s : all) {
      byPartition.put(s.partition(), s);
    }
    return List.copyOf(byPartition.values());
  }
}

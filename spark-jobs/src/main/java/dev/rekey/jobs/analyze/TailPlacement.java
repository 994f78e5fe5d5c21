package dev.rekey.jobs.analyze;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each salt bucket's write tail sits. Inside a bucket the key still grows, so only the
 * bucket's last region takes its appends; several tails on one RegionServer make it hot again.
 */
public final class TailPlacement {
  private TailPlacement() {}

  /**
   * The region index of bucket b's tail: the region holding the largest possible key of the bucket.
   */
  public static int tailRegion(List<byte[]> startKeys, int bucket) {
    byte[] top = new byte[64];
    Arrays.fill(top, (byte) 0xff);
    top[0] = (byte) bucket;
    return KeyStats.regionOf(startKeys, top);
  }

  /** Buckets per server ("" for an unknown server), in bucket order. */
  public static Map<String, List<Integer>> tailsByServer(
      int buckets, List<byte[]> startKeys, List<String> serverOfRegion) {
    Map<String, List<Integer>> out = new LinkedHashMap<>();
    for (int b = 0; b < buckets; b++) {
      String s = serverOfRegion.get(tailRegion(startKeys, b));
      out.computeIfAbsent(s, k -> new ArrayList<>()).add(b);
    }
    return out;
  }

  /** The fair share of tails per server: ceil(N ÷ servers). */
  public static int fairShare(int buckets, int servers) {
    return (buckets + Math.max(1, servers) - 1) / Math.max(1, servers);
  }
}

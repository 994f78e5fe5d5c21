package dev.rekey.jobs.backfill.plan;

import dev.rekey.rowkey.Hex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Whether a table's regions, as {@code hbase:meta} lists them, cover its key space exactly once:
 * sorted by start key, the first starts at the empty key, each starts where the one before ends,
 * and the last ends at the empty key. A hole (keys no region holds) or an overlap (keys two regions
 * claim) means meta is damaged; the bulk loader would then put files into the wrong region or none,
 * so the load refuses before anything is loaded. Pure: unit-tested without HBase.
 */
public final class RegionChain {
  /** One region's key range as meta lists it; an empty end is the end of the table. */
  public record Span(byte[] start, byte[] end, String name) {}

  private RegionChain() {}

  /**
   * The holes and overlaps in the chain, in key order, each as one phrase naming the regions and
   * keys (hex); empty when the regions chain from the empty start key to the empty end key.
   */
  public static List<String> problems(List<Span> regions) {
    List<String> out = new ArrayList<>();
    if (regions.isEmpty()) {
      out.add("the table has no regions in hbase:meta");
      return out;
    }
    List<Span> sorted = new ArrayList<>(regions);
    sorted.sort(
        Comparator.comparing(Span::start, Arrays::compareUnsigned)
            .thenComparing(Span::end, RegionChain::compareEnds));
    Span first = sorted.get(0);
    if (first.start().length != 0) {
      out.add(
          String.format(
              "a hole before the first region %s: no region holds the keys below %s",
              first.name(), hex(first.start())));
    }
    // the region reaching furthest so far: a region nested in an earlier one must not hide that
    // the earlier one covers the keys after it
    Span reach = first;
    for (int i = 1; i < sorted.size(); i++) {
      Span next = sorted.get(i);
      int c = reach.end().length == 0 ? -1 : Arrays.compareUnsigned(next.start(), reach.end());
      if (c > 0) {
        out.add(
            String.format(
                "a hole between region %s (ends at %s) and region %s (starts at %s): no region"
                    + " holds the keys [%2$s, %4$s)",
                reach.name(), hex(reach.end()), next.name(), hex(next.start())));
      } else if (c < 0) {
        out.add(
            String.format(
                "an overlap: region %s [%s, %s) and region %s [%s, %s) both hold the keys from %5$s",
                reach.name(),
                hex(reach.start()),
                endHex(reach.end()),
                next.name(),
                hex(next.start()),
                endHex(next.end())));
      }
      if (compareEnds(next.end(), reach.end()) > 0) {
        reach = next;
      }
    }
    if (reach.end().length != 0) {
      out.add(
          String.format(
              "a hole after the last region %s: no region holds the keys from %s",
              reach.name(), hex(reach.end())));
    }
    return out;
  }

  /** End keys in key order, the empty end (end of table) last. */
  private static int compareEnds(byte[] a, byte[] b) {
    if (a.length == 0 || b.length == 0) {
      return Boolean.compare(a.length == 0, b.length == 0);
    }
    return Arrays.compareUnsigned(a, b);
  }

  private static String hex(byte[] k) {
    return k.length == 0 ? "(empty)" : Hex.of(k);
  }

  private static String endHex(byte[] k) {
    return k.length == 0 ? "end of table" : Hex.of(k);
  }
}

package dev.rekey.admin.plan;

import dev.rekey.rowkey.Hex;
import java.util.ArrayList;
import java.util.List;

/**
 * A planned pre-split: the region count with the arithmetic behind it, the split points (hex, and
 * as split-file lines), the bucket-count advice and warnings. Immutable; what the CLI prints and
 * writes as JSON.
 *
 * @param layout layout name
 * @param prefix the layout's prefix, e.g. {@code salt(16, java_arrays_hashcode)}
 * @param regions regions the table is created with (= split points + 1)
 * @param recommendedBuckets bucket count N for --servers (1–2× servers, power of two, ≤ 256), else
 *     null
 * @param arithmetic how the region count was reached, one step per line
 * @param warnings what to look out for (e.g. a time-first key without a prefix)
 * @param splitPointsHex the split points as lower-case hex
 */
public record SplitPlan(
    String layout,
    String prefix,
    int regions,
    Integer recommendedBuckets,
    List<String> arithmetic,
    List<String> warnings,
    List<String> splitPointsHex) {
  public SplitPlan {
    arithmetic = List.copyOf(arithmetic);
    warnings = List.copyOf(warnings);
    splitPointsHex = List.copyOf(splitPointsHex);
  }

  static SplitPlan of(
      String layout,
      String prefix,
      Integer recommendedBuckets,
      List<String> arithmetic,
      List<String> warnings,
      List<byte[]> points) {
    List<String> hex = new ArrayList<>(points.size());
    points.forEach(p -> hex.add(Hex.of(p)));
    return new SplitPlan(
        layout, prefix, points.size() + 1, recommendedBuckets, arithmetic, warnings, hex);
  }

  /** The split points as bytes, in order. */
  public List<byte[]> splitPoints() {
    List<byte[]> out = new ArrayList<>(splitPointsHex.size());
    splitPointsHex.forEach(h -> out.add(Hex.parse(h)));
    return out;
  }
}

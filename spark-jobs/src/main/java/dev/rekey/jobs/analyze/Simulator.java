package dev.rekey.jobs.analyze;

import dev.rekey.rowkey.DecodedKey;
import dev.rekey.rowkey.KeyLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Places sampled keys, optionally rekeyed to a proposed layout, into proposed regions. Pure. */
public final class Simulator {
  private Simulator() {}

  /**
   * @param current the layout of the sampled keys (needed to rekey; null = simulate on the keys as
   *     they are)
   * @param proposed the proposed layout (null = the keys as they are)
   * @param totalRows rows the sample stands for (to scale counts)
   */
  public static Simulation simulate(
      KeyLayout current,
      KeyLayout proposed,
      SplitSpec splits,
      List<byte[]> sampleKeys,
      long totalRows) {
    if (proposed != null && current == null) {
      throw new IllegalArgumentException(
          "simulating layout "
              + proposed.name()
              + " needs the current layout (--layout) "
              + "to decode the sampled keys");
    }
    List<byte[]> keys = new ArrayList<>(sampleKeys.size());
    long bad = 0;
    String firstProblem = null;
    for (byte[] k : sampleKeys) {
      if (proposed == null) {
        keys.add(k);
        continue;
      }
      try {
        DecodedKey d = current.decode(k);
        Map<String, Object> fields = new LinkedHashMap<>(d.fields());
        fields.keySet().retainAll(proposed.fields().stream().map(f -> f.name()).toList());
        keys.add(proposed.encode(fields));
      } catch (IllegalArgumentException e) {
        bad++;
        if (firstProblem == null) {
          firstProblem = e.getMessage();
        }
      }
    }
    List<byte[]> starts = KeyStats.startKeys(splits.points());
    long[] counts = KeyStats.rowsPerRegion(starts, keys);
    double scale = keys.isEmpty() ? 0 : (double) totalRows / sampleKeys.size();
    List<Long> predicted = new ArrayList<>(counts.length);
    for (long c : counts) {
      predicted.add(Math.round(c * scale));
    }
    int empty = counts.length - KeyStats.nonEmpty(counts);
    int for90 = regionsHolding(counts, 0.9);
    double skew = KeyStats.maxOverMean(counts);
    boolean hexOnRaw = KeyStats.hexSplitsOnRawKeys(splits.points(), keys);
    List<String> warnings = new ArrayList<>();
    long total = Arrays.stream(counts).sum();
    if (hexOnRaw) {
      long top = topShare(counts, for90);
      warnings.add(
          String.format(
              Locale.ROOT,
              "HexStringSplit boundaries on a raw-byte prefix: almost every row in a "
                  + "handful of regions (%.0f%% of rows in %d of %d regions). %s",
              100.0 * top / Math.max(1, total),
              for90,
              counts.length,
              KeyStats.HEX_ON_RAW));
    } else if (counts.length > 1 && skew > 2) {
      warnings.add(
          String.format(
              Locale.ROOT,
              "skewed: the busiest region gets %.1f× the mean; %d of %d regions hold "
                  + "90%% of the rows",
              skew,
              for90,
              counts.length));
    }
    if (bad > 0) {
      warnings.add(
          String.format(
              Locale.ROOT,
              "%,d of %,d sampled keys could not be rekeyed (first: %s)",
              bad,
              sampleKeys.size(),
              firstProblem));
    }
    return new Simulation(
        proposed == null ? "the current keys" : proposed.name(),
        splits.description(),
        counts.length,
        keys.size(),
        bad,
        firstProblem,
        predicted,
        skew,
        empty,
        for90,
        hexOnRaw,
        warnings);
  }

  /** The fewest regions (busiest first) holding at least {@code share} of the rows. */
  static int regionsHolding(long[] counts, double share) {
    long total = Arrays.stream(counts).sum();
    if (total == 0) {
      return 0;
    }
    long[] sorted = counts.clone();
    Arrays.sort(sorted);
    long acc = 0;
    int n = 0;
    for (int i = sorted.length - 1; i >= 0; i--) {
      acc += sorted[i];
      n++;
      if (acc >= share * total) {
        break;
      }
    }
    return n;
  }

  private static long topShare(long[] counts, int k) {
    long[] sorted = counts.clone();
    Arrays.sort(sorted);
    long acc = 0;
    for (int i = sorted.length - 1; i >= sorted.length - k && i >= 0; i--) {
      acc += sorted[i];
    }
    return acc;
  }
}

package dev.rekey.bench;

import java.util.Arrays;

/** Benchmarks' per-round ratios summed up without the first round, which warms up the JIT. */
public final class WarmRounds {
  private WarmRounds() {}

  /** "median x, best y, worst z" of rounds 2.. (round 1 alone if there is no other). */
  public static String summary(double[] ratios) {
    double[] s = Arrays.copyOfRange(ratios, ratios.length > 1 ? 1 : 0, ratios.length);
    Arrays.sort(s);
    return String.format(
        "median %.2fx, best %.2fx, worst %.2fx", s[s.length / 2], s[0], s[s.length - 1]);
  }
}

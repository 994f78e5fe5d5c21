package dev.rekey.bench;

import java.util.Arrays;

/**
 * Benchmarks' per-round ratios summed up without the rounds that warm the JIT up: the first {@code
 * -Dbench.warmRounds} (default 1). A read's cold paths — Spark's scheduling, the tasks'
 * serialization, HBase's protobuf for splits and manifests — run a few times per pass, so the JIT
 * is still compiling them a dozen rounds in (docs/benchmarks.md), where a raw HFile pass's few
 * methods are compiled by round 3; leaving more rounds out gives the steady state, as JMH's warm-up
 * iterations do. Every round is still printed.
 */
public final class WarmRounds {
  private WarmRounds() {}

  /** The rounds of {@code rounds} left out of the summary (at least one round is kept). */
  public static int warm(int rounds) {
    return Math.max(0, Math.min(Integer.getInteger("bench.warmRounds", 1), rounds - 1));
  }

  /** "rounds a-b": the rounds of {@code rounds} the summary is of. */
  public static String counted(int rounds) {
    return "rounds " + (warm(rounds) + 1) + "-" + rounds;
  }

  /** The rounds of {@code values} after the warm-up ones. */
  public static double[] steady(double[] values) {
    return Arrays.copyOfRange(values, warm(values.length), values.length);
  }

  /** The median of {@code values} (of an even count, the mean of the two middle ones). */
  public static double median(double[] values) {
    double[] s = values.clone();
    Arrays.sort(s);
    int m = s.length / 2;
    return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
  }

  /** "median x, best y, worst z" of the rounds after the warm-up ones. */
  public static String summary(double[] ratios) {
    double[] s = steady(ratios);
    Arrays.sort(s);
    return String.format("median %.2fx, best %.2fx, worst %.2fx", median(s), s[0], s[s.length - 1]);
  }
}

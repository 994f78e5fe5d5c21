package dev.rekey.client;

/**
 * Which SHADOW reads are compared, for a fraction {@code f} in [0, 1]: read number {@code n}
 * (counted from 0 since the fraction was set) is compared exactly when {@code floor((n + 1) * f) >
 * floor(n * f)}. Deterministic and spread evenly: after {@code n} reads, {@code floor(n * f)} were
 * compared, so a fraction of 0.1 compares reads 9, 19, 29, ... and never two neighbours, and 1
 * compares every read, 0 none. Deterministic rather than random so a test (and an operator reading
 * counters) sees exactly {@code floor(n * f)} comparisons.
 *
 * <p>Immutable: {@link ReadSwitch} swaps a whole sample when the fraction changes, so a change at
 * run time starts a fresh count.
 *
 * @param fraction the share of shadow reads compared, 0 to 1
 */
public record ShadowSample(double fraction) {
  /** Every read compared: the default. */
  public static final ShadowSample ALL = new ShadowSample(1.0);

  public ShadowSample {
    if (!(fraction >= 0.0 && fraction <= 1.0)) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot sample shadow reads: fraction %s is not between 0 and 1 (0.05 compares one"
                  + " read in twenty)",
              fraction));
    }
  }

  /** True when read number {@code n} (from 0) is compared. */
  public boolean compares(long n) {
    if (fraction >= 1.0) {
      return true;
    }
    if (fraction <= 0.0) {
      return false;
    }
    return (long) Math.floor((n + 1) * fraction) > (long) Math.floor(n * fraction);
  }
}

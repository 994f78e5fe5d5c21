package dev.rekey.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Which shadow reads a fraction compares: exactly floor(n * f) of n, evenly spaced. */
@Tag("unit")
class ShadowSampleTest {
  @Test
  void aTenthComparesEveryTenthReadAndNoNeighbours() {
    ShadowSample s = new ShadowSample(0.1);
    List<Long> compared = new ArrayList<>();
    for (long n = 0; n < 50; n++) {
      if (s.compares(n)) {
        compared.add(n);
      }
    }
    assertEquals(List.of(9L, 19L, 29L, 39L, 49L), compared);
  }

  @Test
  void afterNReadsExactlyFloorOfNTimesFWereCompared() {
    for (double f : new double[] {0.0, 0.01, 0.05, 1.0 / 3, 0.5, 0.77, 0.999, 1.0}) {
      ShadowSample s = new ShadowSample(f);
      long compared = 0;
      for (long n = 0; n < 10_000; n++) {
        if (s.compares(n)) {
          compared++;
        }
        assertEquals((long) Math.floor((n + 1) * f), compared, "fraction " + f + " read " + n);
      }
    }
  }

  @Test
  void allAndNoneAreExact() {
    assertTrue(ShadowSample.ALL.compares(0));
    assertTrue(ShadowSample.ALL.compares(Long.MAX_VALUE - 1));
    assertFalse(new ShadowSample(0).compares(0));
    assertFalse(new ShadowSample(0).compares(1_000_000));
  }

  @Test
  void aFractionOutsideZeroToOneIsRefusedWithTheReason() {
    for (double bad : new double[] {-0.1, 1.5, Double.NaN}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> new ShadowSample(bad));
      assertTrue(
          e.getMessage().startsWith("Cannot sample shadow reads: fraction "), e.getMessage());
    }
  }
}

package dev.rekey.admin.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.rowkey.SplitPoints;
import dev.rekey.testing.Layouts;
import java.nio.ByteBuffer;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class SplitPlannerTest {
  private static void assertPoints(List<byte[]> expected, List<byte[]> actual) {
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i), actual.get(i), "point " + i);
    }
  }

  @Test
  void volumeArithmeticIsTheSeedsExample() {
    List<String> steps = new ArrayList<>();
    assertEquals(128, SplitPlanner.regionsForVolume(500, 6, 1.5, steps));
    assertEquals(
        List.of("500 GB ÷ 6 GB × 1.5 = 125 → 128 regions (rounded up to a power of two)"), steps);
    assertEquals(64, SplitPlanner.regionsForVolume(100, 5, 2, new ArrayList<>())); // 40 → 64
    assertEquals(32, SplitPlanner.regionsForVolume(100, 5, 1.6, new ArrayList<>())); // exactly 32
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> SplitPlanner.regionsForVolume(100, 5, 3, new ArrayList<>()));
    assertEquals(
        "--growth must be in 1.5..2 (room for 1.5 to 2 times today's data), got 3", e.getMessage());
  }

  @Test
  void bucketsAreOneToTwoTimesTheServersAsAPowerOfTwo() {
    assertEquals(16, SplitPlanner.bucketsFor(12)); // seed 002: 12 servers, N = 16
    assertEquals(16, SplitPlanner.bucketsFor(16));
    assertEquals(32, SplitPlanner.bucketsFor(17));
    assertEquals(1, SplitPlanner.bucketsFor(1));
    assertEquals(256, SplitPlanner.bucketsFor(300));
    for (int s = 1; s <= 256; s++) {
      int n = SplitPlanner.bucketsFor(s);
      assertTrue(n >= s && n < 2 * s && Integer.bitCount(n) == 1, "servers " + s + " -> " + n);
    }
  }

  @Test
  void saltedLayoutSplitsOnItsBuckets() {
    SplitPlan p =
        SplitPlanner.forLayout(Layouts.shipped("telemetry-v2")).volume(500, 6, 1.5).plan();
    assertEquals(16, p.regions());
    assertPoints(SplitPoints.salt(16), p.splitPoints());
    assertTrue(
        p.arithmetic().get(0).startsWith("500 GB ÷ 6 GB × 1.5 = 125 → 128 regions"),
        p.arithmetic().toString());
    assertTrue(
        p.arithmetic().get(1).contains("pre-split into its N = 16 buckets"),
        p.arithmetic().toString());

    SplitPlan servers = SplitPlanner.forLayout(Layouts.shipped("telemetry-v2")).servers(40).plan();
    assertEquals(64, servers.recommendedBuckets());
    assertEquals(16, servers.regions());
    assertTrue(
        servers
            .warnings()
            .get(0)
            .contains("has N = 16 buckets, but 40 RegionServers call for N = 64"),
        servers.warnings().toString());
    assertTrue(
        SplitPlanner.forLayout(Layouts.shipped("telemetry-v2"))
            .servers(12)
            .plan()
            .warnings()
            .isEmpty());
  }

  @Test
  void hashPrefixLayoutUsesEvenPrefixBoundaries() {
    SplitPlan p = SplitPlanner.forLayout(Layouts.shipped("events-v2")).regions(64).plan();
    assertEquals(64, p.regions());
    assertNull(p.recommendedBuckets());
    assertPoints(SplitPoints.prefix(2, 64), p.splitPoints());
    assertEquals("0400", p.splitPointsHex().get(0)); // multiples of 1,024
    assertEquals("fc00", p.splitPointsHex().get(62));
    // seed 000: 24 servers, four regions each
    assertEquals(
        96, SplitPlanner.forLayout(Layouts.shipped("events-v2")).servers(24).plan().regions());
  }

  @Test
  void timeFirstLayoutWithoutPrefixWarnsAboutUniformSplits() {
    SplitPlan p = SplitPlanner.forLayout(Layouts.shipped("telemetry-v1")).regions(8).plan();
    assertPoints(SplitPoints.uniform(8), p.splitPoints());
    assertTrue(
        p.warnings().get(0).contains("uniform split points put today's writes all in one region"),
        p.warnings().toString());
  }

  @Test
  void monthlyBoundariesOnATimeFirstKey() {
    SplitPlan p =
        SplitPlanner.forLayout(Layouts.shipped("telemetry-v1"))
            .monthly(YearMonth.of(2026, 1), YearMonth.of(2026, 3))
            .plan();
    assertEquals(4, p.regions());
    long feb = 1769904000000L; // 2026-02-01T00:00Z
    long mar = 1772323200000L;
    long apr = 1775001600000L;
    assertPoints(
        List.of(
            ByteBuffer.allocate(8).putLong(feb).array(),
            ByteBuffer.allocate(8).putLong(mar).array(),
            ByteBuffer.allocate(8).putLong(apr).array()),
        p.splitPoints());
    assertTrue(
        p.arithmetic()
            .get(0)
            .startsWith("3 month(s) 2026-01..2026-03 → boundaries at 2026-02-01 … 2026-04-01 UTC"),
        p.arithmetic().toString());
  }

  @Test
  void monthlyWithinEverySaltBucket() {
    SplitPlan p =
        SplitPlanner.forLayout(Layouts.shipped("telemetry-v2"))
            .monthly(YearMonth.of(2026, 1), YearMonth.of(2026, 3))
            .plan();
    assertEquals(16 * 4, p.regions());
    List<byte[]> pts = p.splitPoints();
    for (int i = 1; i < pts.size(); i++) {
      assertTrue(Arrays.compareUnsigned(pts.get(i - 1), pts.get(i)) < 0, "ascending at " + i);
    }
    assertEquals("00" + String.format("%016x", 1769904000000L), p.splitPointsHex().get(0));
    assertEquals("01", p.splitPointsHex().get(3));
  }

  @Test
  void monthlyIsRefusedWhenTimeDoesNotLead() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                SplitPlanner.forLayout(Layouts.shipped("events-v2"))
                    .monthly(YearMonth.of(2026, 1), YearMonth.of(2026, 2))
                    .plan());
    assertTrue(
        e.getMessage().startsWith("Cannot plan monthly split points for layout events-v2"),
        e.getMessage());
  }

  @Test
  void exactlyOneSizing() {
    assertThrows(
        IllegalArgumentException.class,
        () -> SplitPlanner.forLayout(Layouts.shipped("events-v2")).regions(4).servers(3).plan());
    assertThrows(
        IllegalArgumentException.class,
        () -> SplitPlanner.forLayout(Layouts.shipped("events-v2")).plan());
    assertThrows(
        IllegalArgumentException.class, () -> SplitPlanner.parseMonths("2026-05..2026-01"));
    assertThrows(IllegalArgumentException.class, () -> SplitPlanner.parseMonths("2026-05"));
  }
}

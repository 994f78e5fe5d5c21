package dev.rekey.jobs.backfill.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.admin.createtable.DateTiered;
import dev.rekey.common.RekeyException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@link TimeTiers#choose} and {@link TierRequest}: the tier decision, without a cluster. */
@Tag("unit")
class TimeTiersTest {
  private static final long DAY = 86_400_000L;
  private static final long NOV1 = Instant.parse("2026-11-01T00:00:00Z").toEpochMilli();
  private static final String LIMIT = "hbase.hstore.blockingStoreFiles=60 of family d";

  /** 30 days of cells, 2026-11-01 00:00 to 2026-11-30 23:59:59.999. */
  private static TimeTiers thirtyDays(int filesPerTier, int limit) {
    return TimeTiers.choose(
        Duration.ofDays(1),
        "--time-tiers P1D",
        NOV1,
        NOV1 + 30 * DAY - 1,
        filesPerTier,
        limit,
        LIMIT);
  }

  @Test
  void oneTierPerDayWhenTheyFitAlignedOnTheEpochAsDateTieredWindowsAre() {
    TimeTiers t = thirtyDays(1, 32);
    assertEquals(30, t.count());
    assertEquals(DAY, t.widthMillis());
    assertEquals(NOV1, t.startOf(0));
    assertEquals(0, t.tierOf(NOV1));
    assertEquals(0, t.tierOf(NOV1 + DAY - 1));
    assertEquals(1, t.tierOf(NOV1 + DAY));
    assertEquals(29, t.tierOf(NOV1 + 30 * DAY - 1));
    assertTrue(t.reason().contains("30 tiers x 1 file(s) = 30 HFiles"), t.reason());
  }

  @Test
  void cellsOutsideTheSpanGoToTheNearestTier() {
    TimeTiers t = thirtyDays(1, 32);
    assertEquals(0, t.tierOf(0), "a delete marker older than every put");
    assertEquals(29, t.tierOf(NOV1 + 400 * DAY));
  }

  @Test
  void tooManyTiersForTheLimitBecomeTheSmallestMultipleThatFits() {
    // 30 days x 2 files per tier = 60 > 32: two-day tiers, 15 x 2 = 30
    TimeTiers t = thirtyDays(2, 32);
    assertEquals(2 * DAY, t.widthMillis());
    assertEquals(15, t.count());
    assertTrue(t.reason().contains("30 tiers x 2 file(s) = 60 HFiles"), t.reason());
    assertTrue(t.reason().contains("tiers of P2D instead, 15 x 2 = 30"), t.reason());
    // HBase's default blocking count (16), one file per tier: 30 -> 15 two-day tiers
    assertEquals(15, thirtyDays(1, 16).count());
    // 7 files per tier, limit 32: 4 tiers at most; 30 days / 8 days per tier spans 4 or 5 tiers
    TimeTiers c = thirtyDays(7, 32);
    assertTrue(c.count() * 7 <= 32, c.reason());
    assertTrue(c.count() >= 2, c.reason());
    assertEquals(0, c.widthMillis() % DAY, "a multiple of the width asked");
    TimeTiers smaller =
        TimeTiers.choose(
            Duration.ofMillis(c.widthMillis() - DAY), "x", NOV1, NOV1 + 30 * DAY - 1, 7, 32, LIMIT);
    assertFalse(smaller.widthMillis() == c.widthMillis() - DAY, "the width below did not fit");
  }

  @Test
  void refusedWhenNotEvenTwoTiersFitNamingTheNumbers() {
    RekeyException e = assertThrows(RekeyException.class, () -> thirtyDays(20, 32));
    assertTrue(e.getMessage().contains("each tier adds 20 HFile(s)"), e.getMessage());
    assertTrue(
        e.getMessage().contains("even two tiers would make 40, over the limit of 32"),
        e.getMessage());
    assertTrue(e.getMessage().contains(LIMIT), e.getMessage());
  }

  @Test
  void aSpanWithinOneTierOrNoCellsWritesOneFilePerSlot() {
    TimeTiers one =
        TimeTiers.choose(
            Duration.ofDays(30),
            "--time-tiers P30D",
            NOV1 + 10 * DAY,
            NOV1 + 12 * DAY,
            1,
            32,
            LIMIT); // 30-day tiers from the epoch: one starts on 2026-11-08
    assertFalse(one.tiered(), one.reason());
    assertEquals(0, one.tierOf(NOV1));
    TimeTiers none =
        TimeTiers.choose(
            Duration.ofDays(1), "--time-tiers P1D", Long.MAX_VALUE, Long.MIN_VALUE, 1, 32, LIMIT);
    assertFalse(none.tiered());
  }

  @Test
  void theRequestParsesADurationOrFamily() {
    assertEquals(Duration.ofDays(30), TierRequest.parse("P30D").width());
    assertEquals(Duration.ofHours(6), TierRequest.parse("pt6h").width());
    assertTrue(TierRequest.parse("family").fromFamily());
    assertNull(TierRequest.parse(null));
    RekeyException bad = assertThrows(RekeyException.class, () -> TierRequest.parse("1 day"));
    assertTrue(bad.getMessage().contains("--time-tiers 1 day"), bad.getMessage());
    assertThrows(RekeyException.class, () -> TierRequest.parse("PT0.5S"));
  }

  @Test
  void familyTakesTheDateTieredBaseWindowAndRefusesAFamilyWithout() {
    Map<String, String> dateTiered =
        new DateTiered(Duration.ofHours(12), null, null).configuration();
    TierRequest family = TierRequest.parse("family");
    assertEquals(Duration.ofHours(12), family.resolve("events_v2", "d", dateTiered));
    assertEquals(Duration.ofDays(1), TierRequest.parse("P1D").resolve("t", "d", Map.of()));
    RekeyException e =
        assertThrows(RekeyException.class, () -> family.resolve("events_v2", "d", Map.of()));
    assertTrue(e.getMessage().contains("family d of events_v2"), e.getMessage());
    assertTrue(e.getMessage().contains("compaction=date_tiered"), e.getMessage());
  }
}

package dev.rekey.jobs.backfill.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.jobs.backfill.Regions;
import dev.rekey.rowkey.SplitPoints;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class SaltFitTest {
  @Test
  void oneRegionPerBucketFits() {
    assertEquals(
        Optional.empty(), SaltFit.problem(Regions.splitAt(SplitPoints.salt(16)), 16, "s16"));
    assertEquals(
        Optional.empty(), SaltFit.problem(Regions.splitAt(SplitPoints.salt(256)), 256, "s256"));
  }

  @Test
  void evenSplitsFitBothWays() {
    // two buckets per region, and each bucket split into four regions (as after HBase splits)
    List<byte[]> pairs = new ArrayList<>();
    for (int b = 2; b < 32; b += 2) {
      pairs.add(new byte[] {(byte) b});
    }
    assertEquals(Optional.empty(), SaltFit.problem(Regions.splitAt(pairs), 32, "s32"));
    List<byte[]> quarters = new ArrayList<>();
    for (int b = 0; b < 16; b++) {
      if (b > 0) {
        quarters.add(new byte[] {(byte) b});
      }
      for (int q = 1; q < 4; q++) {
        quarters.add(new byte[] {(byte) b, (byte) (q * 64)});
      }
    }
    assertEquals(Optional.empty(), SaltFit.problem(Regions.splitAt(quarters), 16, "s16"));
  }

  @Test
  void moreBucketsThanTheRegionsSeparatePutTheRestInTheLastRegion() {
    String p = SaltFit.problem(Regions.splitAt(SplitPoints.salt(16)), 32, "s32").orElseThrow();
    assertTrue(p.contains("layout s32 salts keys into 32 buckets (first byte 00..1f)"), p);
    assertTrue(
        p.contains(
            "region 15 [0f, ) takes 17 of the 32 buckets, where an even split puts at most 2"),
        p);
    assertTrue(p.contains("8.5x"), p);
  }

  @Test
  void fewerBucketsThanRegionsLeaveRegionsEmpty() {
    String p = SaltFit.problem(Regions.splitAt(SplitPoints.salt(32)), 16, "s16").orElseThrow();
    assertTrue(
        p.contains(
            "16 of the table's 32 regions start after the last bucket and would stay empty (the first "
                + "is region 16 from 10)"),
        p);
  }

  @Test
  void unevenBoundariesAreNamed() {
    // 10 buckets over boundaries 1, 2, 3: the last region takes 7 where 3 would be even
    List<byte[]> points = List.of(new byte[] {1}, new byte[] {2}, new byte[] {3});
    assertTrue(
        SaltFit.problem(Regions.splitAt(points), 10, "s10")
            .orElseThrow()
            .contains("takes 7 of the 10 buckets"));
    List<byte[]> even = List.of(new byte[] {3}, new byte[] {5}, new byte[] {8});
    assertEquals(Optional.empty(), SaltFit.problem(Regions.splitAt(even), 10, "s10"));
    assertEquals(
        Optional.empty(), SaltFit.problem(Regions.splitAt(SplitPoints.salt(16)), 1, "one bucket"));
  }

  @Test
  void bucketsInCountsWhatARangeReaches() {
    RegionBoundaries r = Regions.splitAt(List.of(new byte[] {4}, new byte[] {6, 1}));
    assertEquals(4, SaltFit.bucketsIn(r, 0, 16)); // 00..03
    assertEquals(3, SaltFit.bucketsIn(r, 1, 16)); // 04, 05 and the start of 06
    assertEquals(10, SaltFit.bucketsIn(r, 2, 16)); // 06..0f
  }
}

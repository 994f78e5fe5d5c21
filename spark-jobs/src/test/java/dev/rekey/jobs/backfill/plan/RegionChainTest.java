package dev.rekey.jobs.backfill.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rekey.jobs.backfill.plan.RegionChain.Span;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RegionChainTest {
  private static byte[] k(int... b) {
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      out[i] = (byte) b[i];
    }
    return out;
  }

  private static final byte[] EMPTY = new byte[0];

  /** Regions split at the given one-byte points, named a, b, c... */
  private static List<Span> chain(int... points) {
    List<Span> out = new ArrayList<>();
    byte[] start = EMPTY;
    for (int i = 0; i <= points.length; i++) {
      byte[] end = i < points.length ? k(points[i]) : EMPTY;
      out.add(new Span(start, end, String.valueOf((char) ('a' + i))));
      start = end;
    }
    return out;
  }

  @Test
  void regionsThatChainFromTheEmptyStartToTheEmptyEndHaveNoProblem() {
    assertEquals(List.of(), RegionChain.problems(chain()));
    assertEquals(List.of(), RegionChain.problems(chain(0x10, 0x20, 0x80, 0xf0)));
    List<Span> shuffled = new ArrayList<>(chain(0x10, 0x20, 0x80));
    java.util.Collections.reverse(shuffled);
    assertEquals(List.of(), RegionChain.problems(shuffled), "meta order does not matter");
  }

  @Test
  void aMissingRegionIsAHoleWithItsKeys() {
    List<Span> regions = new ArrayList<>(chain(0x10, 0x20, 0x80));
    regions.remove(2); // c = [20, 80)
    assertEquals(
        List.of(
            "a hole between region b (ends at 20) and region d (starts at 80): no region holds"
                + " the keys [20, 80)"),
        RegionChain.problems(regions));
  }

  @Test
  void aMissingFirstOrLastRegionIsAHoleAtTheEdge() {
    List<Span> noFirst = new ArrayList<>(chain(0x10, 0x20));
    noFirst.remove(0);
    assertEquals(
        List.of("a hole before the first region b: no region holds the keys below 10"),
        RegionChain.problems(noFirst));
    List<Span> noLast = new ArrayList<>(chain(0x10, 0x20));
    noLast.remove(2);
    assertEquals(
        List.of("a hole after the last region b: no region holds the keys from 20"),
        RegionChain.problems(noLast));
  }

  @Test
  void aRegionClaimingKeysAnotherHoldsIsAnOverlap() {
    List<Span> regions = new ArrayList<>(chain(0x10, 0x20, 0x80));
    regions.add(new Span(k(0x18), k(0x30), "x"));
    assertEquals(
        List.of(
            "an overlap: region b [10, 20) and region x [18, 30) both hold the keys from 18",
            "an overlap: region x [18, 30) and region c [20, 80) both hold the keys from 20"),
        RegionChain.problems(regions));
  }

  @Test
  void aRegionNestedInAnotherIsAnOverlapAndHidesNoHole() {
    List<Span> regions = new ArrayList<>(chain(0x10, 0x80));
    regions.add(new Span(k(0x20), k(0x30), "x")); // inside b = [10, 80)
    assertEquals(
        List.of("an overlap: region b [10, 80) and region x [20, 30) both hold the keys from 20"),
        RegionChain.problems(regions));
  }

  @Test
  void twoRegionsToTheEndOfTheTableOverlap() {
    List<Span> regions = new ArrayList<>(chain(0x10));
    regions.add(new Span(k(0x40), EMPTY, "x"));
    assertEquals(
        List.of(
            "an overlap: region b [10, end of table) and region x [40, end of table) both hold"
                + " the keys from 40"),
        RegionChain.problems(regions));
  }

  @Test
  void noRegionsAtAllIsAProblem() {
    assertEquals(
        List.of("the table has no regions in hbase:meta"), RegionChain.problems(List.of()));
  }
}

package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RegionCheckTest {
  private static Iterator<byte[]> keys(String... k) {
    return Stream.of(k).map(Bytes::toBytes).iterator();
  }

  @Test
  void everyRowWrittenFoundWithOthersAroundThem() {
    RegionCheck.Outcome o = RegionCheck.merge(keys("b", "d", "f"), keys("a", "b", "c", "d", "f", "g"));
    assertEquals(new RegionCheck.Outcome(3, 3, 3), o);
    assertTrue(o.complete(3));
    assertFalse(o.complete(4), "the HFiles must hold the manifest's rows");
  }

  @Test
  void aLostRowIsFoundEvenWhenAnotherRowKeepsTheCountEqual() {
    RegionCheck.Outcome o = RegionCheck.merge(keys("b", "d", "f"), keys("b", "e", "f"));
    assertEquals(new RegionCheck.Outcome(3, 2, 1), o);
    assertFalse(o.complete(3));
  }

  @Test
  void emptySides() {
    assertEquals(new RegionCheck.Outcome(0, 0, 2), RegionCheck.merge(keys(), keys("a", "b")));
    assertEquals(new RegionCheck.Outcome(2, 0, 0), RegionCheck.merge(keys("a", "b"), List.<byte[]>of().iterator()));
  }
}

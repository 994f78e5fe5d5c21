package dev.rekey.jobs.backfill.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RegionVerificationTest {
  /** Cells from "row:qualifier@ts" specs, family d, sorted in HBase order. */
  private static Iterator<Cell> cells(String... specs) {
    List<Cell> out = new ArrayList<>();
    for (String s : specs) {
      String[] rowRest = s.split(":");
      String[] qualTs = rowRest[1].split("@");
      out.add(
          new KeyValue(
              Bytes.toBytes(rowRest[0]),
              Bytes.toBytes("d"),
              Bytes.toBytes(qualTs[0]),
              Long.parseLong(qualTs[1]),
              Bytes.toBytes("x")));
    }
    out.sort(CellComparator.getInstance());
    return out.iterator();
  }

  private static RegionVerification.Outcome merge(
      Iterator<Cell> written, Iterator<Cell> table, int versions) {
    return RegionVerification.merge(written, table, c -> versions);
  }

  @Test
  void everyCellWrittenFoundWithOtherRowsAroundThem() {
    RegionVerification.Outcome o =
        merge(
            cells("b:v@1", "b:s@1", "d:v@2", "f:v@3"),
            cells("a:v@9", "b:v@1", "b:s@1", "c:v@9", "d:v@2", "f:v@3", "g:v@9", "g:s@9"),
            1);
    assertEquals(new RegionVerification.Outcome(3, 4, 4, 0, 3), o);
    assertTrue(o.complete(3, 4));
    assertFalse(o.complete(4, 4), "the HFiles must hold the manifest's rows");
    assertFalse(o.complete(3, 5), "the HFiles must hold the manifest's cells");
  }

  @Test
  void aLostRowIsFoundEvenWhenAnotherRowKeepsTheCountEqual() {
    RegionVerification.Outcome o =
        merge(cells("b:v@1", "d:v@1", "f:v@1"), cells("b:v@1", "e:v@1", "f:v@1"), 1);
    assertEquals(new RegionVerification.Outcome(3, 3, 2, 0, 1), o);
    assertEquals(1, o.missingCells());
    assertFalse(o.complete(3, 3));
  }

  @Test
  void aLostOlderVersionIsFound() {
    RegionVerification.Outcome o =
        merge(cells("b:v@3", "b:v@2", "b:v@1"), cells("b:v@3", "b:v@1"), 3);
    assertEquals(new RegionVerification.Outcome(1, 3, 2, 0, 0), o);
    assertFalse(o.complete(1, 3));
  }

  @Test
  void aVersionHiddenByNewerDualWritesIsShadowedNotLost() {
    // the family keeps 2 versions; two newer cells written since the snapshot hide both written
    // versions
    RegionVerification.Outcome o = merge(cells("b:v@2", "b:v@1"), cells("b:v@9", "b:v@8"), 2);
    assertEquals(new RegionVerification.Outcome(1, 2, 0, 2, 0), o);
    assertTrue(o.complete(1, 2));
    // one newer cell leaves room for the newest written version: the older one must be there too
    o = merge(cells("b:v@2", "b:v@1"), cells("b:v@9", "b:v@2"), 2);
    assertEquals(new RegionVerification.Outcome(1, 2, 1, 1, 0), o);
    assertTrue(o.complete(1, 2));
    o = merge(cells("b:v@2", "b:v@1"), cells("b:v@9"), 2);
    assertEquals(
        2,
        o.missingCells(),
        "one newer cell and a 2-version family: both written versions must be visible");
  }

  @Test
  void emptySides() {
    assertEquals(
        new RegionVerification.Outcome(0, 0, 0, 0, 2),
        merge(cells(), cells("a:v@1", "b:v@1", "b:s@1"), 1));
    assertEquals(
        new RegionVerification.Outcome(2, 2, 0, 0, 0), merge(cells("a:v@1", "b:v@1"), cells(), 1));
  }
}

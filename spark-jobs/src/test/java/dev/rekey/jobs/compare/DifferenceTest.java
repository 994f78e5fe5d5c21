package dev.rekey.jobs.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.rekey.common.DecodedCell;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The compare's one meaning of missing, extra and different. Pure. */
@Tag("unit")
class DifferenceTest {
  private static DecodedCell cell(String q, long ts, String value) {
    return new DecodedCell(Bytes.toBytes("d"), Bytes.toBytes(q), ts, Bytes.toBytes(value));
  }

  private static final DecodedCell V1 = cell("v", 100, "a");
  private static final DecodedCell V2 = cell("v", 200, "b");
  private static final DecodedCell S1 = cell("s", 100, "ok");

  private static SideRow row(String rowKey, int bucket, DecodedCell... cells) {
    return new SideRow(Bytes.toBytes(rowKey), Bytes.toBytes("nk"), bucket, List.of(cells));
  }

  @Test
  void theSameCellsMatchInAnyOrderUnderAnyRowKey() {
    assertEquals(Difference.MATCH, Difference.of(List.of(V1, V2, S1), List.of(S1, V2, V1)));
    assertEquals(Difference.MATCH, KeyDiff.of(row("old", 3, V1), row("new-key", 3, V1)).kind());
    assertEquals(Difference.MATCH, Difference.of(List.of(), List.of()));
  }

  @Test
  void aRowOnOneSideOnlyIsMissingOrExtra() {
    assertEquals(Difference.MISSING_IN_NEW, Difference.of(List.of(V1), List.of()));
    assertEquals(Difference.EXTRA_IN_NEW, Difference.of(List.of(), List.of(V1)));
    KeyDiff missing = KeyDiff.of(row("old", 3, V1), null);
    assertEquals(Difference.MISSING_IN_NEW, missing.kind());
    assertSame(missing.old(), missing.any());
    KeyDiff extra = KeyDiff.of(null, row("new", 4, V1));
    assertEquals(Difference.EXTRA_IN_NEW, extra.kind());
    assertEquals("nk", Bytes.toString(extra.naturalKey()));
  }

  @Test
  void anotherValueDiffers() {
    assertEquals(
        Difference.CONTENT_DIFFERS, Difference.of(List.of(V1), List.of(cell("v", 100, "z"))));
  }

  @Test
  void aLostOrAnExtraOlderVersionDiffers() {
    // the newest version agrees: a reader of one version would see no difference
    assertEquals(Difference.CONTENT_DIFFERS, Difference.of(List.of(V2, V1), List.of(V2)));
    assertEquals(Difference.CONTENT_DIFFERS, Difference.of(List.of(V2), List.of(V2, V1)));
  }

  @Test
  void theSameValueAtAnotherTimestampDiffers() {
    assertEquals(
        Difference.CONTENT_DIFFERS, Difference.of(List.of(V1), List.of(cell("v", 101, "a"))));
  }

  @Test
  void anotherFamilyOrQualifierDiffers() {
    assertEquals(
        Difference.CONTENT_DIFFERS, Difference.of(List.of(V1), List.of(cell("w", 100, "a"))));
    DecodedCell otherFamily =
        new DecodedCell(Bytes.toBytes("e"), Bytes.toBytes("v"), 100, Bytes.toBytes("a"));
    assertEquals(Difference.CONTENT_DIFFERS, Difference.of(List.of(V1), List.of(otherFamily)));
  }

  @Test
  void labelsAreTheReportsWords() {
    assertEquals("missing in new", Difference.MISSING_IN_NEW.label());
    assertEquals("extra in new", Difference.EXTRA_IN_NEW.label());
    assertEquals("content differs", Difference.CONTENT_DIFFERS.label());
  }
}

package dev.rekey.jobs.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.DecodedCell;
import dev.rekey.jobs.compare.Difference;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class RowRepairTest {
  static final long SNAP = 1_000;

  static DecodedCell cell(String fq, long ts, String value) {
    String[] p = fq.split(":");
    return new DecodedCell(Bytes.toBytes(p[0]), Bytes.toBytes(p[1]), ts, Bytes.toBytes(value));
  }

  static final DecodedCell V1 = cell("d:v", 100, "a");
  static final DecodedCell V2 = cell("d:v", 200, "b");
  static final DecodedCell S1 = cell("d:s", 100, "ok");

  @Test
  void identicalRowsNeedNothing() {
    RowRepair.Fix f = RowRepair.decide(List.of(V1, V2, S1), List.of(S1, V2, V1), SNAP, true);
    assertEquals(Difference.MATCH, f.kind());
    assertTrue(f.settled());
  }

  @Test
  void aMissingRowIsCopiedWithItsOwnTimestamps() {
    RowRepair.Fix f = RowRepair.decide(List.of(V1, V2, S1), List.of(), SNAP, false);
    assertEquals(Difference.MISSING_IN_NEW, f.kind());
    assertEquals(List.of(V1, V2, S1), f.puts());
    assertTrue(f.deletes().isEmpty());
  }

  @Test
  void aDroppedOlderVersionIsPutBack() {
    RowRepair.Fix f = RowRepair.decide(List.of(V1, V2), List.of(V2), SNAP, false);
    assertEquals(Difference.CONTENT_DIFFERS, f.kind());
    assertEquals(List.of(V1), f.puts());
  }

  @Test
  void aChangedValueIsOverwrittenWithTheOldOne() {
    RowRepair.Fix f =
        RowRepair.decide(List.of(V1), List.of(cell("d:v", 100, "changed")), SNAP, false);
    assertEquals(Difference.CONTENT_DIFFERS, f.kind());
    assertEquals(List.of(V1), f.puts());
    assertTrue(f.extras().isEmpty(), "same coordinate: overwritten, not extra");
  }

  @Test
  void aChangedTimestampIsPutAndTheStrayVersionIsExtra() {
    DecodedCell moved = cell("d:v", 101, "a");
    RowRepair.Fix kept = RowRepair.decide(List.of(V1), List.of(moved), SNAP, false);
    assertEquals(List.of(V1), kept.puts());
    assertEquals(List.of(moved), kept.extras());
    assertTrue(kept.deletes().isEmpty());
    assertFalse(kept.settled());

    RowRepair.Fix deleted = RowRepair.decide(List.of(V1), List.of(moved), SNAP, true);
    assertEquals(List.of(moved), deleted.deletes());
    assertTrue(deleted.extras().isEmpty());
  }

  @Test
  void anExtraRowIsReportedUnlessDeleteExtra() {
    RowRepair.Fix reported = RowRepair.decide(List.of(), List.of(V1, S1), SNAP, false);
    assertEquals(Difference.EXTRA_IN_NEW, reported.kind());
    assertEquals(List.of(V1, S1), reported.extras());
    assertTrue(reported.writesNothing());

    RowRepair.Fix deleted = RowRepair.decide(List.of(), List.of(V1, S1), SNAP, true);
    assertEquals(List.of(V1, S1), deleted.deletes());
  }

  @Test
  void cellsNewerThanTheSnapshotAreNeverOverwrittenOrDeleted() {
    DecodedCell dualWrite = cell("d:v", SNAP + 1, "dual");
    DecodedCell oldFuture = cell("d:v", SNAP + 1, "old");
    RowRepair.Fix f = RowRepair.decide(List.of(V1, oldFuture), List.of(dualWrite), SNAP, true);
    assertEquals(List.of(V1), f.puts(), "the dual write's coordinate is not put over");
    assertTrue(f.deletes().isEmpty());
    assertEquals(List.of(dualWrite), f.keptNewer());
  }

  @Test
  void anExtraRowNewerThanTheSnapshotIsKeptEvenWithDeleteExtra() {
    DecodedCell newer = cell("d:v", SNAP + 5, "x");
    RowRepair.Fix f = RowRepair.decide(List.of(), List.of(newer), SNAP, true);
    assertTrue(f.deletes().isEmpty());
    assertEquals(List.of(newer), f.keptNewer());
    assertTrue(f.settled(), "a dual write is not a difference to report");
  }

  @Test
  void aCellAtTheSnapshotTimeIsNotNewer() {
    DecodedCell atSnap = cell("d:v", SNAP, "x");
    RowRepair.Fix f = RowRepair.decide(List.of(), List.of(atSnap), SNAP, true);
    assertEquals(List.of(atSnap), f.deletes());
  }
}

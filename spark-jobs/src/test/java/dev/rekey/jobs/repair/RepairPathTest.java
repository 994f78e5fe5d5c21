package dev.rekey.jobs.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RepairPathTest {
  @Test
  void fewCellsArePuts() {
    RepairPath p = RepairPath.choose(12, 100);
    assertEquals(RepairPath.Kind.PUTS, p.kind());
    assertTrue(p.built());
    assertEquals(
        "write path: Puts with explicit timestamps through a BufferedMutator, WAL on (12 cells, at most 100: --max-put-cells)",
        p.describe());
  }

  @Test
  void theLimitItselfIsStillPuts() {
    assertEquals(RepairPath.Kind.PUTS, RepairPath.choose(100, 100).kind());
  }

  @Test
  void manyCellsAreHFilesWhichAreRefusedWithTheNumbers() {
    RepairPath p = RepairPath.choose(250_000, RepairPath.DEFAULT_MAX_PUT_CELLS);
    assertEquals(RepairPath.Kind.HFILES, p.kind());
    assertFalse(p.built());
    assertEquals(
        "Cannot repair t2: 250,000 cells to write is more than --max-put-cells 100,000, and the"
            + " HFile path for large repairs is not built yet (repair a shorter --from/--to range"
            + " at a time, rerun the backfill for the range, or raise --max-put-cells to write them"
            + " all as Puts)",
        p.refusal("t2"));
  }
}

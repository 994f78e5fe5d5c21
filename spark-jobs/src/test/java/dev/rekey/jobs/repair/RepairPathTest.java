package dev.rekey.jobs.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RepairPathTest {
  @Test
  void fewCellsArePuts() {
    RepairPath p = RepairPath.choose(12, 100);
    assertEquals(RepairPath.Kind.PUTS, p.kind());
    assertEquals(
        "write path: Puts with explicit timestamps through a BufferedMutator, WAL on (12 cells, at most 100: --max-put-cells)",
        p.describe());
  }

  @Test
  void theLimitItselfIsStillPuts() {
    assertEquals(RepairPath.Kind.PUTS, RepairPath.choose(100, 100).kind());
  }

  @Test
  void manyCellsAreHFiles() {
    RepairPath p = RepairPath.choose(250_000, RepairPath.DEFAULT_MAX_PUT_CELLS);
    assertEquals(RepairPath.Kind.HFILES, p.kind());
    assertEquals(
        "write path: the backfill's HFiles, sorted by new row key and bulk-loaded into the regions"
            + " of the rows repaired (250,000 cells, more than 100,000: --max-put-cells)",
        p.describe());
  }

  @Test
  void zeroLimitSendsEveryCellToHFiles() {
    assertEquals(RepairPath.Kind.HFILES, RepairPath.choose(1, 0).kind());
    assertEquals(RepairPath.Kind.PUTS, RepairPath.choose(0, 0).kind());
  }
}

package dev.rekey.jobs.repair;

import java.util.Locale;

/**
 * How a repair writes, chosen by size (pure): up to {@code maxPutCells} cells (Puts plus Deletes)
 * go as Puts with explicit timestamps through a BufferedMutator, WAL on; more would go through the
 * backfill's HFile path ({@code RowsLoad}): only the rows to repair, sorted by their new keys into
 * HFiles of the regions that hold them, bulk-loaded and verified — the RegionServers are not
 * flooded with Puts, and the load's cost grows with the rows repaired, not the table.
 *
 * @param cells cells to write (puts + deletes)
 * @param maxPutCells the limit (--max-put-cells)
 */
public record RepairPath(Kind kind, long cells, long maxPutCells) {
  /** Default of --max-put-cells: a repair of up to this many cells is written as Puts. */
  public static final long DEFAULT_MAX_PUT_CELLS = 100_000;

  public enum Kind {
    PUTS,
    HFILES
  }

  public static RepairPath choose(long cells, long maxPutCells) {
    return new RepairPath(cells <= maxPutCells ? Kind.PUTS : Kind.HFILES, cells, maxPutCells);
  }

  /** The line the job prints. */
  public String describe() {
    return kind == Kind.PUTS
        ? String.format(
            Locale.ROOT,
            "write path: Puts with explicit timestamps through a BufferedMutator, WAL on (%,d cells, at most %,d: --max-put-cells)",
            cells,
            maxPutCells)
        : String.format(
            Locale.ROOT,
            "write path: the backfill's HFiles, sorted by new row key and bulk-loaded into the regions of the rows repaired (%,d cells, more than %,d: --max-put-cells)",
            cells,
            maxPutCells);
  }
}

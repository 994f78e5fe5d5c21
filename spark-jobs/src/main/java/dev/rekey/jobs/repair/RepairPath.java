package dev.rekey.jobs.repair;

import java.util.Locale;

/**
 * How a repair writes, chosen by size (pure): up to {@code maxPutCells} cells (Puts plus Deletes)
 * go as Puts with explicit timestamps through a BufferedMutator, WAL on; more would go through the
 * backfill's HFile path restricted to the affected key ranges. That path is not built for repair
 * yet, so a larger repair is refused with the numbers ({@link #refusal}) instead of flooding the
 * RegionServers with Puts unasked.
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

  /** True when this path can run (the HFile path is not built yet). */
  public boolean built() {
    return kind == Kind.PUTS;
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
            "write path: HFiles bulk-loaded into the affected key ranges (%,d cells, more than %,d: --max-put-cells)",
            cells,
            maxPutCells);
  }

  /** Why a path that is not built cannot run, with what to do. */
  public String refusal(String table) {
    return String.format(
        Locale.ROOT,
        "Cannot repair %s: %,d cells to write is more than --max-put-cells %,d, and the HFile path"
            + " for large repairs is not built yet (repair a shorter --from/--to range at a time,"
            + " rerun the backfill for the range, or raise --max-put-cells to write them all as Puts)",
        table,
        cells,
        maxPutCells);
  }
}

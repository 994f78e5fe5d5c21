package dev.rekey.jobs.repair;

import dev.rekey.jobs.compare.Difference;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What one bucket's comparison found, by natural key and by cell (mergeable: Spark sums the rows'
 * counts per bucket).
 *
 * @param extraCells cells in new only, older than the snapshot, left in place (no --delete-extra)
 * @param newerCellsKept cells in new newer than the old side's snapshot (dual writes), untouched
 */
public record TimeBucketCounts(
    long missingRows,
    long extraRows,
    long changedRows,
    long cellsToPut,
    long cellsToDelete,
    long extraCells,
    long newerCellsKept)
    implements Serializable {
  public static final TimeBucketCounts NONE = new TimeBucketCounts(0, 0, 0, 0, 0, 0, 0);

  /** The counts of one row's fix. */
  public static TimeBucketCounts of(RowRepair.Fix f) {
    return new TimeBucketCounts(
        f.kind() == Difference.MISSING_IN_NEW ? 1 : 0,
        f.kind() == Difference.EXTRA_IN_NEW ? 1 : 0,
        f.kind() == Difference.CONTENT_DIFFERS ? 1 : 0,
        f.puts().size(),
        f.deletes().size(),
        f.extras().size(),
        f.keptNewer().size());
  }

  public TimeBucketCounts plus(TimeBucketCounts o) {
    return new TimeBucketCounts(
        missingRows + o.missingRows,
        extraRows + o.extraRows,
        changedRows + o.changedRows,
        cellsToPut + o.cellsToPut,
        cellsToDelete + o.cellsToDelete,
        extraCells + o.extraCells,
        newerCellsKept + o.newerCellsKept);
  }

  /** Cells written by a repair: Puts and Deletes. */
  public long cellsToWrite() {
    return cellsToPut + cellsToDelete;
  }

  /** True when the new side holds the old side's cells: nothing to write and no extra to report. */
  public boolean settled() {
    return cellsToWrite() == 0 && extraCells == 0;
  }

  /** "2 rows missing in new, 1 changed; 7 cells to put" — the parts that are not zero. */
  public String describe() {
    List<String> rows = new ArrayList<>();
    add(rows, missingRows, "row", "missing in new");
    add(rows, changedRows, "row", "with other content");
    add(rows, extraRows, "row", "extra in new");
    List<String> cells = new ArrayList<>();
    add(cells, cellsToPut, "cell", "to put");
    add(cells, cellsToDelete, "cell", "to delete");
    add(
        cells,
        extraCells,
        "extra cell",
        "older than the snapshot, kept (--delete-extra removes them)");
    add(cells, newerCellsKept, "cell", "newer than the snapshot, kept");
    String r = String.join(", ", rows);
    String c = String.join(", ", cells);
    return r.isEmpty() && c.isEmpty()
        ? "matches"
        : r.isEmpty() ? c : c.isEmpty() ? r : r + "; " + c;
  }

  private static void add(List<String> parts, long n, String noun, String what) {
    if (n != 0) {
      parts.add(String.format(Locale.ROOT, "%,d %s%s %s", n, noun, n == 1 ? "" : "s", what));
    }
  }
}

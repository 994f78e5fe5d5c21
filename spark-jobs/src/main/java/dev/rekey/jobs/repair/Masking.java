package dev.rekey.jobs.repair;

import dev.rekey.jobs.common.DecodedCell;
import java.util.ArrayList;
import java.util.List;

/**
 * Which of a row's Puts the new table's delete markers would hide (pure). A marker older than (or
 * as old as) the old side's snapshot is damage to undo: the Put waits until a major compaction has
 * removed it ({@link #needsCompaction}). A marker newer than the snapshot is a delete the dual
 * writers made after it: its cells stay deleted, the Put is dropped ({@link #deletedAfterSnapshot})
 * — else a compaction would resurrect a row the application deleted.
 */
public record Masking(
    List<DecodedCell> writable,
    List<DecodedCell> needsCompaction,
    List<DecodedCell> deletedAfterSnapshot) {

  /** Splits {@code puts} by the markers that hide them. */
  public static Masking of(List<DecodedCell> puts, List<Marker> markers, long snapshotTime) {
    List<DecodedCell> ok = new ArrayList<>();
    List<DecodedCell> compact = new ArrayList<>();
    List<DecodedCell> dropped = new ArrayList<>();
    for (DecodedCell c : puts) {
      boolean hidden = false;
      boolean newer = false;
      for (Marker m : markers) {
        if (m.hides(c)) {
          hidden = true;
          newer |= m.timestamp() > snapshotTime;
        }
      }
      (newer ? dropped : hidden ? compact : ok).add(c);
    }
    return new Masking(List.copyOf(ok), List.copyOf(compact), List.copyOf(dropped));
  }

  public boolean masked() {
    return !needsCompaction.isEmpty();
  }
}

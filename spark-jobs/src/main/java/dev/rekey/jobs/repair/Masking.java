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
    List<DecodedCell> deletedAfterSnapshot)
    implements java.io.Serializable {

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

  /**
   * This masking, found after a compaction, keeping the deletes {@code before} it found newer than
   * the snapshot: the compaction removed their markers along with the cells they hid, so a raw scan
   * no longer sees them, and those cells must stay deleted all the same.
   */
  public Masking keeping(Masking before) {
    if (before == null || before.deletedAfterSnapshot.isEmpty()) {
      return this;
    }
    List<DecodedCell> ok = new ArrayList<>();
    List<DecodedCell> dropped = new ArrayList<>(deletedAfterSnapshot);
    for (DecodedCell c : writable) {
      (before.deletedAfterSnapshot.contains(c) && !dropped.contains(c) ? dropped : ok).add(c);
    }
    List<DecodedCell> compact =
        needsCompaction.stream().filter(c -> !before.deletedAfterSnapshot.contains(c)).toList();
    for (DecodedCell c : needsCompaction) {
      if (before.deletedAfterSnapshot.contains(c) && !dropped.contains(c)) {
        dropped.add(c);
      }
    }
    return new Masking(List.copyOf(ok), compact, List.copyOf(dropped));
  }

  /** Per row, {@code after} keeping the deletes newer than the snapshot {@code before} found. */
  static java.util.Map<String, Masking> keeping(
      java.util.Map<String, Masking> after, java.util.Map<String, Masking> before) {
    java.util.Map<String, Masking> out = new java.util.HashMap<>();
    after.forEach((row, m) -> out.put(row, m.keeping(before.get(row))));
    return out;
  }

  public boolean masked() {
    return !needsCompaction.isEmpty();
  }
}

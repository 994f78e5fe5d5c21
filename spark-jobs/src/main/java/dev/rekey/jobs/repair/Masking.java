package dev.rekey.jobs.repair;

import dev.rekey.common.DecodedCell;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Which of a row's Puts the new table's delete markers would hide (pure). A marker older than (or
 * as old as) the old side's snapshot is damage to undo: the Put waits until a major compaction has
 * removed it ({@link #needsCompaction}). A marker newer than the snapshot is a delete the dual
 * writers made after it: its cells stay deleted, the Put is dropped ({@link #deletedAfterSnapshot})
 * — else a compaction would resurrect a row the application deleted. In a family with HBase's
 * NEW_VERSION_BEHAVIOR a marker hides only what was written before it: there no Put waits.
 */
public record Masking(
    List<DecodedCell> writable,
    List<DecodedCell> needsCompaction,
    List<DecodedCell> deletedAfterSnapshot)
    implements java.io.Serializable {

  /** Splits {@code puts} by the markers that hide them, in a table of classic families. */
  public static Masking of(List<DecodedCell> puts, List<Marker> markers, long snapshotTime) {
    return of(puts, markers, snapshotTime, Set.of());
  }

  /**
   * Splits {@code puts} by the markers that hide them. In the families {@code writtenAfter} names
   * (NEW_VERSION_BEHAVIOR: {@link #writtenAfterFamilies}) a marker hides only the cells written
   * before it, so a Put written now shows over a marker as old as the snapshot without a
   * compaction; a marker newer than the snapshot still drops its Puts — there a Put would undo the
   * delete.
   */
  public static Masking of(
      List<DecodedCell> puts, List<Marker> markers, long snapshotTime, Set<String> writtenAfter) {
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
      boolean showsOverOldMarkers = writtenAfter.contains(Bytes.toString(c.family()));
      (newer ? dropped : hidden && !showsOverOldMarkers ? compact : ok).add(c);
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

  /**
   * The families of {@code table} whose delete markers hide only the cells written before them
   * (HBase's NEW_VERSION_BEHAVIOR, HBASE-15968: versions ordered by write sequence as well as by
   * timestamp).
   */
  public static Set<String> writtenAfterFamilies(TableDescriptor table) {
    Set<String> out = new TreeSet<>();
    for (ColumnFamilyDescriptor f : table.getColumnFamilies()) {
      if (f.isNewVersionBehavior()) {
        out.add(f.getNameAsString());
      }
    }
    return Set.copyOf(out);
  }

  public boolean masked() {
    return !needsCompaction.isEmpty();
  }
}

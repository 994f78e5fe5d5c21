package dev.rekey.jobs.repair;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one natural key needs so that the new side holds the old side's cells (pure: no Spark, no
 * HBase). Cells are compared by coordinate (family, qualifier, timestamp) and value:
 *
 * <ul>
 *   <li>an old cell the new side lacks, or holds with another value, is <b>put</b> with its own
 *       timestamp — unless the new side's cell at that coordinate is newer than the old side's
 *       snapshot (a dual write): it is <b>kept</b>;
 *   <li>a new cell the old side lacks is <b>kept</b> when newer than the snapshot (a dual write),
 *       else it is <b>extra</b>: deleted at its exact timestamp with {@code deleteExtra}, else
 *       reported.
 * </ul>
 *
 * Nothing newer than the snapshot is ever put over or deleted.
 */
public final class RowRepair {
  private RowRepair() {}

  /** How a natural key differs. */
  public enum Kind {
    MATCH,
    MISSING_IN_NEW,
    EXTRA_IN_NEW,
    CONTENT_DIFFERS
  }

  /**
   * The decision for one natural key.
   *
   * @param puts old cells to write to the new row, with their own timestamps
   * @param deletes new cells to delete at their exact timestamps (only with deleteExtra)
   * @param extras new cells not on the old side, older than the snapshot, left in place (no
   *     deleteExtra)
   * @param keptNewer new cells newer than the snapshot that differ from the old side: kept
   */
  public record Fix(
      Kind kind,
      List<RepairCell> puts,
      List<RepairCell> deletes,
      List<RepairCell> extras,
      List<RepairCell> keptNewer)
      implements Serializable {

    /** True when nothing is written or deleted for the row. */
    public boolean writesNothing() {
      return puts.isEmpty() && deletes.isEmpty();
    }

    /**
     * True when the new row holds the old row's cells now: nothing left to write, delete or report
     * (cells newer than the snapshot are dual writes, not differences).
     */
    public boolean settled() {
      return writesNothing() && extras.isEmpty();
    }
  }

  /**
   * The fix of one natural key.
   *
   * @param old the old side's cells (every version), empty when the old side has no such row
   * @param neu the new side's cells (every version), empty when the new side has no such row
   * @param snapshotTime creation time of the old side's snapshot (epoch millis): new cells with a
   *     later timestamp are dual writes and never touched
   * @param deleteExtra delete extra cells older than the snapshot instead of reporting them
   */
  public static Fix decide(
      List<RepairCell> old, List<RepairCell> neu, long snapshotTime, boolean deleteExtra) {
    Map<String, RepairCell> inNew = new HashMap<>();
    for (RepairCell c : neu) {
      inNew.put(c.coordinate(), c);
    }
    Map<String, RepairCell> inOld = new HashMap<>();
    List<RepairCell> puts = new ArrayList<>();
    List<RepairCell> keptNewer = new ArrayList<>();
    for (RepairCell o : old) {
      inOld.put(o.coordinate(), o);
      RepairCell n = inNew.get(o.coordinate());
      if (n == null) {
        puts.add(o);
      } else if (!n.sameValue(o)) {
        if (n.timestamp() > snapshotTime) {
          keptNewer.add(n);
        } else {
          puts.add(o);
        }
      }
    }
    List<RepairCell> deletes = new ArrayList<>();
    List<RepairCell> extras = new ArrayList<>();
    for (RepairCell n : neu) {
      if (inOld.containsKey(n.coordinate())) {
        continue;
      }
      if (n.timestamp() > snapshotTime) {
        keptNewer.add(n);
      } else if (deleteExtra) {
        deletes.add(n);
      } else {
        extras.add(n);
      }
    }
    Kind kind;
    if (old.isEmpty() && neu.isEmpty()) {
      kind = Kind.MATCH;
    } else if (neu.isEmpty()) {
      kind = Kind.MISSING_IN_NEW;
    } else if (old.isEmpty()) {
      kind = Kind.EXTRA_IN_NEW;
    } else {
      boolean differs =
          !puts.isEmpty() || !deletes.isEmpty() || !extras.isEmpty() || !keptNewer.isEmpty();
      kind = differs ? Kind.CONTENT_DIFFERS : Kind.MATCH;
    }
    return new Fix(
        kind, List.copyOf(puts), List.copyOf(deletes), List.copyOf(extras), List.copyOf(keptNewer));
  }
}

package dev.rekey.jobs.repair;

import dev.rekey.common.DecodedCell;
import dev.rekey.jobs.compare.Difference;
import dev.rekey.rowkey.Hex;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one natural key needs so that the new side holds the old side's cells (pure: no Spark, no
 * HBase). How the key differs is the compare's {@link Difference}; what to write is decided per
 * cell, by coordinate (family, qualifier, timestamp) and value:
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
      Difference kind,
      List<DecodedCell> puts,
      List<DecodedCell> deletes,
      List<DecodedCell> extras,
      List<DecodedCell> keptNewer)
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
      List<DecodedCell> old, List<DecodedCell> neu, long snapshotTime, boolean deleteExtra) {
    Map<String, DecodedCell> inNew = new HashMap<>();
    for (DecodedCell c : neu) {
      inNew.put(coordinate(c), c);
    }
    Map<String, DecodedCell> inOld = new HashMap<>();
    List<DecodedCell> puts = new ArrayList<>();
    List<DecodedCell> keptNewer = new ArrayList<>();
    for (DecodedCell o : old) {
      inOld.put(coordinate(o), o);
      DecodedCell n = inNew.get(coordinate(o));
      if (n == null) {
        puts.add(o);
      } else if (!Arrays.equals(n.value(), o.value())) {
        if (n.timestamp() > snapshotTime) {
          keptNewer.add(n);
        } else {
          puts.add(o);
        }
      }
    }
    List<DecodedCell> deletes = new ArrayList<>();
    List<DecodedCell> extras = new ArrayList<>();
    for (DecodedCell n : neu) {
      if (inOld.containsKey(coordinate(n))) {
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
    return new Fix(
        Difference.of(old, neu),
        List.copyOf(puts),
        List.copyOf(deletes),
        List.copyOf(extras),
        List.copyOf(keptNewer));
  }

  /** A cell's coordinate as a map key: {@code familyHex:qualifierHex@timestamp}. */
  private static String coordinate(DecodedCell c) {
    return Hex.of(c.family()) + ":" + Hex.of(c.qualifier()) + "@" + c.timestamp();
  }
}

package dev.rekey.jobs.repair;

import java.io.Serializable;

/**
 * What a repair wrote to one bucket's rows.
 *
 * @param putsKeptDeleted cells not put because a delete marker newer than the old side's snapshot
 *     hides them: rows the application deleted after the snapshot stay deleted
 */
public record WriteCounts(long cellsPut, long cellsDeleted, long putsKeptDeleted)
    implements Serializable {
  public static final WriteCounts NONE = new WriteCounts(0, 0, 0);

  public WriteCounts plus(WriteCounts o) {
    return new WriteCounts(
        cellsPut + o.cellsPut, cellsDeleted + o.cellsDeleted, putsKeptDeleted + o.putsKeptDeleted);
  }
}

package dev.rekey.jobs.repair;

import java.io.Serializable;

/**
 * One repaired bucket: what the comparison found, what was written, and what the comparison found
 * again after the writes.
 *
 * @param found the comparison before writing (for a bucket done by an earlier, killed run: {@code
 *     null})
 * @param written what this run (or, resumed, the earlier run) wrote; null in a dry run
 * @param resumed true when an earlier run wrote the bucket and this run skipped it
 * @param after the comparison after writing; null in a dry run
 */
public record TimeBucketRepair(
    int index,
    long start,
    long end,
    TimeBucketCounts found,
    WriteCounts written,
    boolean resumed,
    TimeBucketCounts after)
    implements Serializable {

  /** True when the re-check found nothing left to write or report (always false in a dry run). */
  public boolean matchesNow() {
    return after != null && after.settled();
  }

  /** "repaired", "matches", "written by an earlier run", "STILL DIFFERS", "dry run". */
  public String status() {
    if (after == null) {
      return "dry run";
    }
    if (!after.settled()) {
      return "STILL DIFFERS";
    }
    if (resumed) {
      return "repaired by the earlier run";
    }
    return found.cellsToWrite() == 0 ? "matches" : "repaired";
  }

  /** Why the bucket still differs, or "". */
  public String reason() {
    if (after == null || after.settled()) {
      return "";
    }
    String why = after.describe();
    if (after.cellsToPut() > 0 && written != null && written.cellsPut() > 0) {
      why +=
          " after the Puts (does the new table's family keep fewer versions than the old side,"
              + " or did a writer change the rows meanwhile?)";
    }
    return why;
  }
}

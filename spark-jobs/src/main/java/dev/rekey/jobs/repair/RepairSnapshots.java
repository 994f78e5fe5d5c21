package dev.rekey.jobs.repair;

import dev.rekey.common.RekeyException;
import dev.rekey.read.JobSnapshots;
import dev.rekey.read.TemporarySnapshot;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.SnapshotDescription;

/**
 * The old side's snapshot of a repair: the one a live old table gets for the run (and the ones
 * killed runs left behind, swept), and its creation time, the line between damage and dual writes.
 */
final class RepairSnapshots {
  /** What the repair's temporary snapshots are named for (rekey_repair_TABLE_ID). */
  static final String PURPOSE = JobSnapshots.REPAIR;

  private RepairSnapshots() {}

  /** A snapshot of a live old table, taken now; null when the old side is a snapshot. */
  static TemporarySnapshot take(Admin admin, RepairOptions options) {
    return new JobSnapshots(PURPOSE, admin.getConfiguration())
        .takeIfVia(admin, options.old().source());
  }

  /** Removes the repair snapshots killed runs left on the old table. */
  static void sweepLeftovers(
      Admin admin, Configuration oldConf, RepairOptions options, Consumer<String> progress)
      throws IOException {
    new JobSnapshots(PURPOSE, oldConf).sweepDead(admin, options.old().source(), progress);
  }

  /** Removes the snapshots of the repaired table a killed run's compare left (ComparePass). */
  static void sweepNewLeftovers(
      Admin admin, Configuration newConf, RepairOptions options, Consumer<String> progress)
      throws IOException {
    new JobSnapshots(PURPOSE, newConf).sweepDead(admin, options.neu().source(), progress);
  }

  /** When the snapshot was taken: the line between the old side's cells and later dual writes. */
  static long creationTime(Admin admin, String snapshot) throws IOException {
    List<SnapshotDescription> l = admin.listSnapshots(Pattern.compile(Pattern.quote(snapshot)));
    if (l.isEmpty()) {
      throw RekeyException.cannot(
          "Cannot repair from snapshot %s: it does not exist (list snapshots with"
              + " `list_snapshots` in the HBase shell)",
          snapshot);
    }
    long t = l.get(0).getCreationTime();
    if (t <= 0) {
      throw RekeyException.cannot(
          "Cannot repair from snapshot %s: it records no creation time, so dual writes newer"
              + " than it cannot be told from damage (take a new snapshot with HBase 2.x)",
          snapshot);
    }
    return t;
  }
}

package dev.rekey.jobs.reconcile;

import dev.rekey.common.Clusters;
import dev.rekey.common.RekeyException;
import dev.rekey.read.JobSnapshots;
import dev.rekey.read.Source;
import dev.rekey.read.TemporarySnapshot;
import java.io.IOException;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.client.Admin;

/**
 * The snapshots of a reconcile's sides ({@link JobSnapshots}), each on its own cluster: the
 * leftovers of killed runs swept before, the ones taken for {@code --via-snapshot}, and the check
 * that every snapshot read is still there after the last read.
 */
final class SideSnapshots {
  private final Clusters clusters;
  private final Consumer<String> progress;

  SideSnapshots(Clusters clusters, Consumer<String> progress) {
    this.clusters = clusters;
    this.progress = progress;
  }

  /** The reconcile snapshots of one side, on its cluster. */
  private JobSnapshots of(boolean oldSide) {
    return new JobSnapshots(JobSnapshots.RECONCILE, clusters.side(oldSide));
  }

  /**
   * Removes the reconcile snapshots (and restore dirs) that killed reconciles of either side's
   * table left. Runs still going keep theirs.
   */
  void sweepLeftovers(ReconcileOptions options) {
    of(true).sweepDead(options.old().source(), progress, "Cannot reconcile");
    of(false).sweepDead(options.neu().source(), progress, "Cannot reconcile");
  }

  /**
   * Each snapshot read must still be there after the last read (a side's own, or {@code
   * oldVia}/{@code newVia} taken for this run): else no result is returned, so no report is
   * written.
   */
  void requireAfterRead(ReconcileOptions options, String oldVia, String newVia) {
    try {
      for (boolean oldSide : new boolean[] {true, false}) {
        SideSpec side = oldSide ? options.old() : options.neu();
        String snapshot = side.isSnapshot() ? side.source().name() : oldSide ? oldVia : newVia;
        if (snapshot != null) {
          of(oldSide)
              .requireAfterRead(
                  snapshot,
                  "Cannot reconcile "
                      + options.old().describe()
                      + " and "
                      + options.neu().describe(),
                  "No result was written");
        }
      }
    } catch (IOException e) {
      throw RekeyException.cannot(e, "Cannot reconcile: %s", e.getMessage());
    }
  }

  /**
   * A snapshot of a live side, taken now (both sides then read files of the same moment, pass 2
   * too); else null.
   */
  static TemporarySnapshot take(Admin admin, SideSpec side) {
    return new JobSnapshots(JobSnapshots.RECONCILE, admin.getConfiguration())
        .takeIfVia(admin, side.source());
  }

  static boolean readsViaSnapshot(SideSpec side) {
    return side.source().kind() == Source.Kind.TABLE_VIA_SNAPSHOT;
  }
}

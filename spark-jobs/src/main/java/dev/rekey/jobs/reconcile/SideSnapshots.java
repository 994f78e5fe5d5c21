package dev.rekey.jobs.reconcile;

import dev.rekey.jobs.common.Clusters;
import dev.rekey.jobs.common.RekeyException;
import dev.rekey.jobs.read.SnapshotPresence;
import dev.rekey.jobs.read.Source;
import dev.rekey.jobs.read.TemporarySnapshot;
import dev.rekey.jobs.read.TemporarySnapshots;
import java.io.IOException;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The snapshots of a reconcile's sides, each on its own cluster: the leftovers of killed runs swept
 * before, the ones taken for {@code --via-snapshot}, and the check that every snapshot read is
 * still there after the last read.
 */
final class SideSnapshots {
  private final Clusters clusters;
  private final Consumer<String> progress;

  SideSnapshots(Clusters clusters, Consumer<String> progress) {
    this.clusters = clusters;
    this.progress = progress;
  }

  /**
   * Removes the reconcile snapshots (and restore dirs) that killed reconciles of either side's
   * table left: a leaked snapshot pins its HFiles after every compaction. Runs still going keep
   * theirs.
   */
  void sweepLeftovers(ReconcileOptions options) {
    try {
      sweepLeftovers(options.old(), clusters.old());
      sweepLeftovers(options.neu(), clusters.neu());
    } catch (IOException e) {
      throw RekeyException.cannot(
          e,
          "Cannot reconcile: could not look for leftover reconcile snapshots: %s",
          e.getMessage());
    }
  }

  /** {@link #sweepLeftovers(ReconcileOptions)} for one side's table, on its own cluster. */
  private void sweepLeftovers(SideSpec side, Configuration conf) throws IOException {
    if (side.isSnapshot()) {
      return; // a snapshot: no table to sweep, no connection to open
    }
    try (Connection conn = ConnectionFactory.createConnection(conf);
        Admin admin = conn.getAdmin()) {
      TableName table = TableName.valueOf(side.source().name());
      if (!admin.tableExists(table)) {
        return; // a missing table is named by the read
      }
      for (TemporarySnapshots.Leftover l :
          TemporarySnapshots.sweepDead(admin, conf, "reconcile", table)) {
        progress.accept("  removed a killed reconcile's " + l.describe());
      }
    }
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
          SnapshotPresence.requireAfterRead(
              clusters.side(oldSide),
              snapshot,
              "Cannot reconcile " + options.old().describe() + " and " + options.neu().describe(),
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
    return readsViaSnapshot(side)
        ? TemporarySnapshot.take(admin, TableName.valueOf(side.source().name()), "reconcile")
        : null;
  }

  static boolean readsViaSnapshot(SideSpec side) {
    return side.source().kind() == Source.Kind.TABLE_VIA_SNAPSHOT;
  }
}

package dev.rekey.read;

import dev.rekey.common.RekeyException;
import java.io.IOException;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The temporary snapshots one job takes on one side's cluster: named {@code rekey_PURPOSE_TABLE_ID}
 * ({@link TemporarySnapshots#prefix}), taken for a table read via a snapshot, the leftovers of its
 * killed runs swept before it starts, checked to be still there after its last read, deleted when
 * closed ({@link TemporarySnapshot#close}). Scan, reconcile and repair all go through it, so a
 * snapshot one of them leaves is found and named the same way by the next run and by {@code rekey
 * cleanup}.
 *
 * @param purpose what the job is ({@code scan}, {@code reconcile}, {@code repair}): the name's
 *     second part and the word in "removed a killed repair's snapshot ..."
 * @param cluster the side's cluster: where the snapshots, their restore dirs and owner files are
 */
public record JobSnapshots(String purpose, Configuration cluster) {
  public static final String SCAN = "scan";
  public static final String RECONCILE = "reconcile";
  public static final String REPAIR = "repair";

  /** The start of the name of every snapshot of {@code table} this job takes. */
  public String prefix(TableName table) {
    return TemporarySnapshots.prefix(purpose, table);
  }

  /** A snapshot of {@code table}, taken now, deleted when closed. */
  public TemporarySnapshot take(Admin admin, TableName table) {
    return TemporarySnapshot.take(admin, table, purpose);
  }

  /**
   * A snapshot of the source's table when it is read via one ({@code --via-snapshot}); else null.
   */
  public TemporarySnapshot takeIfVia(Admin admin, Source source) {
    return source.kind() == Source.Kind.TABLE_VIA_SNAPSHOT
        ? take(admin, TableName.valueOf(source.name()))
        : null;
  }

  /**
   * Removes the snapshots (and restore dirs) killed runs of this job left of the source's table: a
   * leaked snapshot pins its HFiles after every compaction. Runs still going keep theirs. A
   * snapshot source has no table to sweep, a missing table is named by the read.
   */
  public void sweepDead(Admin admin, Source source, Consumer<String> progress) throws IOException {
    if (source.kind() == Source.Kind.SNAPSHOT) {
      return;
    }
    TableName table = TableName.valueOf(source.name());
    if (!admin.tableExists(table)) {
      return;
    }
    for (TemporarySnapshots.Leftover l :
        TemporarySnapshots.sweepDead(admin, cluster, purpose, table)) {
      progress.accept("  removed a killed " + purpose + "'s " + l.describe());
    }
  }

  /**
   * {@link #sweepDead(Admin, Source, Consumer)} through a connection of its own (none for a
   * snapshot source); a failure is the job's: {@code cannot} starts its message ("Cannot scan table
   * T").
   */
  public void sweepDead(Source source, Consumer<String> progress, String cannot) {
    if (source.kind() == Source.Kind.SNAPSHOT) {
      return; // no connection to open
    }
    try (Connection conn = ConnectionFactory.createConnection(cluster);
        Admin admin = conn.getAdmin()) {
      sweepDead(admin, source, progress);
    } catch (IOException e) {
      throw RekeyException.cannot(
          e, "%s: could not look for leftover %s snapshots: %s", cannot, purpose, e.getMessage());
    }
  }

  /**
   * After the job's last read of {@code snapshot}: throws if it went away or expired meanwhile
   * ({@link SnapshotPresence#requireAfterRead}).
   */
  public void requireAfterRead(String snapshot, String cannot, String state) throws IOException {
    SnapshotPresence.requireAfterRead(cluster, snapshot, cannot, state);
  }
}

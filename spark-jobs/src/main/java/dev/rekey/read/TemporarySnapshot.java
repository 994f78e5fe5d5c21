package dev.rekey.read;

import dev.rekey.common.RekeyException;
import java.io.IOException;
import java.util.UUID;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;

/**
 * A snapshot rekey takes of a live table for one run and deletes when closed: a job then reads the
 * table's HFiles in its own tasks instead of asking the RegionServers for every row. Named {@code
 * rekey_PURPOSE_TABLE_ID} so that one left behind by a killed run says where it came from.
 */
public final class TemporarySnapshot implements AutoCloseable {
  private final Admin admin;
  private final TableName table;
  private final String name;
  private final dev.rekey.common.RunLease lease;

  private TemporarySnapshot(
      Admin admin, TableName table, String name, dev.rekey.common.RunLease lease) {
    this.admin = admin;
    this.table = table;
    this.name = name;
    this.lease = lease;
  }

  /**
   * Flushes and snapshots {@code table} (HBase's own snapshot: the memstores are flushed first).
   */
  public static TemporarySnapshot take(Admin admin, TableName table, String purpose) {
    String name = newName(purpose, table);
    try {
      if (!admin.tableExists(table)) {
        throw RekeyException.cannot(
            "Cannot snapshot table %s: it does not exist (list tables with `list` in the HBase"
                + " shell, or check --hbase-site points at the right cluster)",
            table);
      }
      admin.snapshot(name, table);
    } catch (IOException e) {
      throw RekeyException.cannot(
          e,
          "Cannot snapshot table %s as %s: %s (taking a snapshot needs the ADMIN"
              + " or CREATE permission on the table)",
          table,
          name,
          e.getMessage());
    }
    // who took it, so that the next run of the same job on the table can tell a killed run's
    // leftover from a running job's snapshot (TemporarySnapshots.sweepDead), renewed while this
    // run lives: a run on another host is known dead once it stops renewing
    return new TemporarySnapshot(
        admin, table, name, TemporarySnapshots.writeOwner(admin.getConfiguration(), name));
  }

  /** {@code rekey_PURPOSE_TABLE_ID}: the table's prefix for the purpose and 8 random hex digits. */
  static String newName(String purpose, TableName table) {
    return TemporarySnapshots.prefix(purpose, table) + UUID.randomUUID().toString().substring(0, 8);
  }

  public String name() {
    return name;
  }

  public TableName table() {
    return table;
  }

  @Override
  public void close() {
    lease.close();
    try {
      admin.deleteSnapshot(name);
      TemporarySnapshots.removeOwner(admin.getConfiguration(), name);
    } catch (IOException e) {
      throw RekeyException.cannot(
          e,
          "Could not delete snapshot %s of %s: %s (delete it with `delete_snapshot"
              + " '%s'` in the HBase shell)",
          name,
          table,
          e.getMessage(),
          name);
    }
  }
}

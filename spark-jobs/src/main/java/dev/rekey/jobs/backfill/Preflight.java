package dev.rekey.jobs.backfill;

import dev.rekey.jobs.common.RekeyException;
import dev.rekey.rowkey.PrefixSpec;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.snapshot.SnapshotInfo;

/**
 * Checks, before anything is read or written, that the backfill can run: the target table and the
 * snapshot exist, every family read is a family of the target, a salt's buckets fit the target's
 * regions, and the staging dir can take the HFiles. Each refusal names the thing and the next step.
 */
final class Preflight {
  private final BackfillOptions o;
  private final Configuration hbaseConf;

  Preflight(BackfillOptions o, Configuration hbaseConf) {
    this.o = o;
    this.hbaseConf = hbaseConf;
  }

  /** What the checks found: the target's descriptor and the source snapshot. */
  record Checked(TableDescriptor target, SnapshotDescription snapshot) {}

  /** The target's descriptor and the snapshot, once every check passed. */
  Checked check(Admin admin, TableName table, Staging staging) throws IOException {
    if (!admin.tableExists(table)) {
      throw new RekeyException(
          "Cannot backfill "
              + table
              + ": target table "
              + table
              + " does not exist (create it "
              + "with `rekey create-table --table "
              + table
              + " --layout "
              + o.targetLayout().name()
              + " --splits salt|uniform|FILE --family NAME`)");
    }
    SnapshotDescription snap = null;
    for (SnapshotDescription s : admin.listSnapshots()) {
      if (s.getName().equals(o.sourceSnapshot())) {
        snap = s;
      }
    }
    if (snap == null) {
      throw new RekeyException(
          "Cannot backfill "
              + table
              + ": snapshot "
              + o.sourceSnapshot()
              + " does not exist (list snapshots with `echo list_snapshots | hbase shell`; take"
              + " one with `snapshot 'SOURCE_TABLE', '"
              + o.sourceSnapshot()
              + "'`)");
    }
    TableDescriptor target = admin.getDescriptor(table);
    checkFamilies(admin, table, target, snap.getTableName());
    checkSalt(admin, table);
    // a staging dir that cannot take the HFiles fails here, named, not after the read as a Spark
    // "Job aborted"
    if (!o.dryRun() && !o.resume()) {
      long sourceBytes = SnapshotInfo.getSnapshotStats(hbaseConf, snap).getStoreFilesSize();
      StagingCheck.check(
          staging,
          "backfill " + table,
          sourceBytes,
          "the size of snapshot " + snap.getName() + "'s store files");
    }
    return new Checked(target, snap);
  }

  private void checkFamilies(
      Admin admin, TableName table, TableDescriptor target, TableName sourceTable)
      throws IOException {
    Set<String> targetFamilies = new TreeSet<>();
    for (ColumnFamilyDescriptor f : target.getColumnFamilies()) {
      targetFamilies.add(f.getNameAsString());
    }
    for (String f : o.families()) {
      if (!targetFamilies.contains(f)) {
        throw RekeyException.usage(
            "Cannot backfill "
                + table
                + ": family '"
                + f
                + "' (--families) is not in target table "
                + table
                + " (its families: "
                + targetFamilies
                + "); add it to the table or leave it out");
      }
    }
    // the source table's families, when it still exists: every family read must exist in the
    // target
    if (admin.tableExists(sourceTable)) {
      for (ColumnFamilyDescriptor f : admin.getDescriptor(sourceTable).getColumnFamilies()) {
        String n = f.getNameAsString();
        if ((o.families().isEmpty() || o.families().contains(n)) && !targetFamilies.contains(n)) {
          throw RekeyException.usage(
              "Cannot backfill "
                  + table
                  + ": source family '"
                  + n
                  + "' (table "
                  + sourceTable
                  + ") is not in target table "
                  + table
                  + " (its families: "
                  + targetFamilies
                  + "); add it to the target, or choose families with --families");
        }
      }
    }
  }

  /**
   * A salt whose buckets the regions do not split evenly rebuilds the hotspot the new key was meant
   * to remove.
   */
  private void checkSalt(Admin admin, TableName table) throws IOException {
    PrefixSpec salt = o.targetLayout().prefix();
    if (salt.kind() != PrefixSpec.Kind.SALT) {
      return;
    }
    Optional<String> misfit =
        SaltFit.problem(
            LiveRegions.of(admin.getConnection(), table), salt.buckets(), o.targetLayout().name());
    if (misfit.isPresent()) {
      throw RekeyException.usage(
          "Cannot backfill "
              + table
              + ": "
              + misfit.get()
              + " (create the target with `rekey create-table --table NEW_TABLE --layout "
              + o.targetLayout().name()
              + " --splits salt`, or pick a --target-layout whose buckets match the table's"
              + " regions)");
    }
  }
}

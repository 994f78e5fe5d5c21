package dev.rekey.jobs.backfill.plan;

import dev.rekey.common.Clusters;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.BackfillOptions;
import dev.rekey.jobs.backfill.staging.Staging;
import dev.rekey.rowkey.PrefixSpec;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
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
public record Preflight(BackfillOptions o, Clusters clusters) {

  /** What the checks found: the target's descriptor and the source snapshot. */
  public record Checked(TableDescriptor target, SnapshotDescription snapshot) {}

  /** The target's descriptor and the snapshot, once every check passed. */
  public Checked check(Admin admin, TableName table, Staging staging) throws IOException {
    if (!admin.tableExists(table)) {
      throw RekeyException.cannot(
          "Cannot backfill %1$s: target table %1$s does not exist (create it with `rekey"
              + " create-table --table %1$s --layout %2$s --splits salt|uniform|FILE --family"
              + " NAME`)",
          table, o.targetLayout().name());
    }
    SourceSnapshot source = SourceSnapshot.open(clusters, o.sourceSnapshot(), "backfill " + table);
    SnapshotDescription snap = source.description();
    TableDescriptor target = admin.getDescriptor(table);
    checkFamilies(table, target, source.table());
    checkSalt(admin, table);
    // a staging dir that cannot take the HFiles fails here, named, not after the read as a Spark
    // "Job aborted"
    if (!o.dryRun() && !o.resume()) {
      long sourceBytes = SnapshotInfo.getSnapshotStats(clusters.old(), snap).getStoreFilesSize();
      StagingPreflight.check(
          staging,
          "backfill " + table,
          sourceBytes,
          "the size of snapshot " + snap.getName() + "'s store files");
    }
    return new Checked(target, snap);
  }

  private void checkFamilies(TableName table, TableDescriptor target, TableDescriptor source) {
    Set<String> targetFamilies = new TreeSet<>();
    for (ColumnFamilyDescriptor f : target.getColumnFamilies()) {
      targetFamilies.add(f.getNameAsString());
    }
    for (String f : o.families()) {
      if (!targetFamilies.contains(f)) {
        throw RekeyException.usage(
            "Cannot backfill %1$s: family '%2$s' (--families) is not in target table %1$s (its"
                + " families: %3$s); add it to the table or leave it out",
            table, f, targetFamilies);
      }
    }
    // the source table's families as the snapshot recorded them (the table itself may be gone, or
    // on another cluster): every family read must exist in the target
    for (ColumnFamilyDescriptor f : source.getColumnFamilies()) {
      String n = f.getNameAsString();
      if ((o.families().isEmpty() || o.families().contains(n)) && !targetFamilies.contains(n)) {
        throw RekeyException.usage(
            "Cannot backfill %1$s: source family '%2$s' (table %3$s) is not in target table %1$s"
                + " (its families: %4$s); add it to the target, or choose families with"
                + " --families",
            table, n, source.getTableName(), targetFamilies);
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
          "Cannot backfill %s: %s (create the target with `rekey create-table --table NEW_TABLE"
              + " --layout %s --splits salt`, or pick a --target-layout whose buckets match the"
              + " table's regions)",
          table, misfit.get(), o.targetLayout().name());
    }
  }
}

package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.read.RegionReader;
import dev.rekey.testing.SharedHBase;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * `rekey cleanup` against the real server: a killed run's temporary snapshot and restore dir go,
 * nothing else.
 */
@Tag("e2e")
class CleanupCommandIT {
  @Test
  void aKilledRunsTemporarySnapshotAndRestoreDirAreRemovedAndNothingElse() throws Exception {
    TableName t = SharedHBase.uniqueTable("cleanup");
    Admin admin = SharedHBase.connection().getAdmin();
    admin.createTable(
        TableDescriptorBuilder.newBuilder(t)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of("d"))
            .build());
    try (Table table = SharedHBase.connection().getTable(t)) {
      table.put(
          new Put(Bytes.toBytes("r1"))
              .addColumn(Bytes.toBytes("d"), Bytes.toBytes("q"), Bytes.toBytes("v")));
    }
    // what a scan killed with -9 leaves: its snapshot and its restore dir (with the links it
    // restored)
    String leaked = "rekey_scan_" + t.getNameAsString() + "_dead0001";
    String users = t.getNameAsString() + "_users_own";
    admin.snapshot(leaked, t);
    admin.snapshot(users, t);
    Configuration conf = SharedHBase.conf();
    FileSystem fs = CommonFSUtils.getRootDir(conf).getFileSystem(conf);
    Path restore = new Path(RegionReader.defaultRestoreRoot(fs), leaked + "-0b5e1c2d");
    fs.mkdirs(new Path(restore, "data"));
    Path othersRestore =
        new Path(RegionReader.defaultRestoreRoot(fs), "rekey_scan_elsewhere_0001-0b5e1c2d");
    fs.mkdirs(othersRestore);
    String site = SharedHBase.server().clientSite().toString();

    CliRun young = cleanup(t);
    assertEquals(0, young.code(), young.err());
    assertTrue(
        young.out().contains("Removed 0 temporary snapshot(s) taken more than PT6H ago of " + t),
        young.out());

    CliRun dry = cleanup(t, "--older-than", "PT0S", "--dry-run");
    assertEquals(0, dry.code(), dry.err());
    assertTrue(dry.out().contains("would remove snapshot " + leaked + " of " + t), dry.out());
    assertTrue(dry.out().contains(restore.getName()), "names the restore dir: " + dry.out());
    assertTrue(snapshots(admin).contains(leaked));

    CliRun run = cleanup(t, "--older-than", "PT0S");
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().contains("Removed 1 temporary snapshot(s)"), run.out());
    List<String> left = snapshots(admin);
    assertFalse(left.contains(leaked), left.toString());
    assertTrue(left.contains(users), "a user's snapshot is kept: " + left);
    assertFalse(fs.exists(restore), "restore dir removed");
    assertTrue(
        fs.exists(othersRestore), "a dir of a snapshot this cluster does not hold is not touched");
    fs.delete(othersRestore, true);

    CliRun bad = CliRun.of("cleanup", "--hbase-site", site, "--older-than", "6 hours");
    assertEquals(2, bad.code(), bad.err());
    assertTrue(
        bad.err().contains("Invalid --older-than '6 hours': expected an ISO-8601 duration"),
        bad.err());
  }

  /** {@code rekey cleanup --hbase-site <the shared server> --table T ARGS}. */
  private static CliRun cleanup(TableName t, String... args) {
    List<String> all =
        new ArrayList<>(
            List.of(
                "cleanup",
                "--hbase-site",
                SharedHBase.server().clientSite().toString(),
                "--table",
                t.getNameAsString()));
    all.addAll(List.of(args));
    return CliRun.of(all.toArray(String[]::new));
  }

  private static List<String> snapshots(Admin admin) throws Exception {
    return admin.listSnapshots().stream().map(SnapshotDescription::getName).toList();
  }
}

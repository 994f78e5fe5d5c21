package dev.rekey.testing;

import dev.rekey.read.RegionReader;
import dev.rekey.read.TemporarySnapshots;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.util.CommonFSUtils;

/**
 * What a run of a job killed with -9 leaves on the cluster: its temporary snapshot, its restore dir
 * (with a file in it) and its owner file naming the process, as rekey names them.
 */
public final class Leftovers {
  /** The snapshot, restore dir and owner file of one run. */
  public record Leftover(String snapshot, Path restoreDir, Path ownerFile) {
    public boolean snapshotExists(Admin admin) throws IOException {
      return admin.listSnapshots().stream()
          .map(SnapshotDescription::getName)
          .anyMatch(snapshot::equals);
    }

    public boolean restoreDirExists() throws IOException {
      return fs().exists(restoreDir);
    }

    public boolean ownerFileExists() throws IOException {
      return fs().exists(ownerFile);
    }
  }

  private Leftovers() {}

  /**
   * Leaves the snapshot {@code rekey_PURPOSE_TABLE_suffix} of {@code table} as if taken by process
   * {@code pid} of this host.
   */
  public static Leftover leave(
      Admin admin, TableName table, String purpose, String suffix, long pid) throws IOException {
    String name = TemporarySnapshots.prefix(purpose, table) + suffix;
    admin.snapshot(name, table);
    FileSystem fs = fs();
    Path restore = new Path(RegionReader.defaultRestoreRoot(fs), name + "-0b5e1c2d");
    fs.mkdirs(new Path(restore, "data"));
    Configuration conf = SharedHBase.conf();
    Path owner = TemporarySnapshots.ownerFile(conf, name);
    try (OutputStream out = fs.create(owner, true)) {
      out.write(
          (InetAddress.getLocalHost().getHostName() + " " + pid + " " + Instant.now())
              .getBytes(StandardCharsets.UTF_8));
    }
    return new Leftover(name, restore, owner);
  }

  /** The id of a process of this host that has exited (a real one: `true`, waited for). */
  public static long deadPid() throws IOException, InterruptedException {
    Process p = new ProcessBuilder("true").start();
    p.waitFor();
    return p.pid();
  }

  /** Removes a leftover a test kept on purpose. */
  public static void remove(Admin admin, Leftover l) throws IOException {
    admin.deleteSnapshot(l.snapshot());
    fs().delete(l.restoreDir(), true);
    fs().delete(l.ownerFile(), false);
  }

  private static FileSystem fs() throws IOException {
    Configuration conf = SharedHBase.conf();
    return CommonFSUtils.getRootDir(conf).getFileSystem(conf);
  }
}

package dev.rekey.read;

import dev.rekey.common.RekeyException;
import dev.rekey.common.RunLease;
import dev.rekey.common.RunOwner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.util.CommonFSUtils;

/**
 * Finds and removes what killed runs leave behind: the {@link TemporarySnapshot}s ({@code
 * rekey_PURPOSE_TABLE_ID}) and the restore dirs named after them. A leaked snapshot pins its HFiles
 * in the archive after every compaction, so the disk they take is never freed. Only dirs of the
 * snapshots found are touched: other clusters may share the restore root (one local filesystem).
 */
public final class TemporarySnapshots {
  /** The prefix every temporary snapshot's name starts with. */
  public static final String PREFIX = "rekey_";

  private TemporarySnapshots() {}

  /** One snapshot left behind, with its restore dirs. */
  public record Leftover(
      String snapshot, TableName table, long createdMillis, List<Path> restoreDirs) {
    public String describe() {
      return "snapshot "
          + snapshot
          + " of "
          + table
          + " (taken "
          + java.time.Instant.ofEpochMilli(createdMillis)
          + ")"
          + (restoreDirs.isEmpty() ? "" : " and its restore dir(s) " + restoreDirs);
    }
  }

  /**
   * Temporary snapshots whose name starts with {@code namePrefix} (itself starting with {@link
   * #PREFIX}), of {@code table} if not null, taken before {@code takenBefore} (epoch millis).
   */
  public static List<Leftover> find(
      Admin admin, Configuration conf, String namePrefix, TableName table, long takenBefore)
      throws IOException {
    if (!namePrefix.startsWith(PREFIX)) {
      throw new IllegalArgumentException("not a temporary snapshot prefix: " + namePrefix);
    }
    FileSystem fs = CommonFSUtils.getRootDir(conf).getFileSystem(conf);
    Path restoreRoot = RegionReader.defaultRestoreRoot(fs);
    FileStatus[] dirs = fs.exists(restoreRoot) ? fs.listStatus(restoreRoot) : new FileStatus[0];
    List<Leftover> out = new ArrayList<>();
    for (SnapshotDescription s : admin.listSnapshots()) {
      if (!s.getName().startsWith(namePrefix)
          || (table != null && !table.equals(s.getTableName()))
          || s.getCreationTime() >= takenBefore) {
        continue;
      }
      List<Path> restore = new ArrayList<>();
      for (FileStatus d : dirs) {
        String n = d.getPath().getName();
        if (n.equals(s.getName()) || n.startsWith(s.getName() + "-")) {
          restore.add(d.getPath());
        }
      }
      out.add(new Leftover(s.getName(), s.getTableName(), s.getCreationTime(), restore));
    }
    return out;
  }

  /**
   * Deletes each leftover's snapshot and restore dirs; failures name the snapshot and the manual
   * step.
   */
  public static void remove(Admin admin, Configuration conf, List<Leftover> leftovers) {
    for (Leftover l : leftovers) {
      try {
        admin.deleteSnapshot(l.snapshot());
        FileSystem fs = CommonFSUtils.getRootDir(conf).getFileSystem(conf);
        for (Path d : l.restoreDirs()) {
          fs.delete(d, true);
        }
        removeOwner(conf, l.snapshot());
      } catch (IOException e) {
        throw RekeyException.cannot(
            e,
            "Cannot remove %s: %s (delete it with `delete_snapshot '%s'` in the" + " HBase shell)",
            l.describe(),
            e.getMessage(),
            l.snapshot());
      }
    }
  }

  /**
   * The prefix of a table's temporary snapshots for one purpose, as {@link TemporarySnapshot} names
   * them.
   */
  public static String prefix(String purpose, TableName table) {
    return PREFIX + purpose + "_" + table.getNameAsString().replace(':', '_') + "_";
  }

  /**
   * Runs without an owner file (taken by an older rekey, or killed between the snapshot and the
   * file) are swept only after this long, as {@code rekey cleanup} does by default.
   */
  public static final java.time.Duration UNOWNED_AGE = java.time.Duration.ofHours(6);

  /**
   * Removes the leftovers of killed runs of one job on one table: its temporary snapshots whose
   * owner is gone ({@link #isDead}: a process of this host that no longer runs, an earlier attempt
   * of this YARN application, or an owner on any host that stopped renewing its owner file), or
   * that have no owner file and are older than {@link #UNOWNED_AGE}, with their restore dirs.
   * Snapshots of runs still going, on any host, are kept. Returns what was removed.
   */
  public static List<Leftover> sweepDead(
      Admin admin, Configuration conf, String purpose, TableName table) throws IOException {
    long now = System.currentTimeMillis();
    String me = RunOwner.line();
    List<Leftover> dead = new ArrayList<>();
    for (Leftover l : find(admin, conf, prefix(purpose, table), table, Long.MAX_VALUE)) {
      Owner owner = readOwner(conf, l.snapshot());
      if (isDead(owner, l.createdMillis(), now, me)) {
        dead.add(l);
      }
    }
    remove(admin, conf, dead);
    return dead;
  }

  /** A snapshot's owner line and how long ago its run last renewed the owner file. */
  record Owner(String line, long renewedMillisAgo) {}

  /**
   * Whether a temporary snapshot taken at {@code createdMillis} is a killed run's, as a lock's
   * holder is judged ({@link RunOwner#stale}, {@link RunLease}): its owner is a process of this
   * host that no longer runs, an earlier attempt of the application {@code me} belongs to, or a run
   * on any host that has not renewed its owner file for {@link RunLease#LEASE_MILLIS}; or it has no
   * owner ({@code null}) and is older than {@link #UNOWNED_AGE}. Pure but for the look at this
   * host's processes.
   */
  static boolean isDead(Owner owner, long createdMillis, long nowMillis, String me) {
    return owner != null
        ? RunOwner.stale(owner.line(), owner.renewedMillisAgo(), RunLease.LEASE_MILLIS, me)
            .isPresent()
        : createdMillis < nowMillis - UNOWNED_AGE.toMillis();
  }

  /**
   * Where the owner of a temporary snapshot is written: beside the restore root, on the HBase
   * root's filesystem.
   */
  public static Path ownerFile(Configuration conf, String snapshot) throws IOException {
    FileSystem fs = CommonFSUtils.getRootDir(conf).getFileSystem(conf);
    return new Path(RegionReader.defaultRestoreRoot(fs).getParent(), "rekey-owners/" + snapshot);
  }

  /**
   * Records this process as the snapshot's owner and renews the record while the run lives (close
   * the lease with the snapshot); a failure only costs the automatic sweep (the snapshot is then
   * removed by age).
   */
  static RunLease writeOwner(Configuration conf, String snapshot) {
    try {
      Path p = ownerFile(conf, snapshot);
      FileSystem fs = p.getFileSystem(conf);
      try (java.io.OutputStream out = fs.create(p, true)) {
        out.write(RunOwner.line().getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      return RunLease.renew(fs, p);
    } catch (IOException e) {
      // the snapshot itself is fine; only its owner is unknown
      return RunLease.none();
    }
  }

  static void removeOwner(Configuration conf, String snapshot) throws IOException {
    Path p = ownerFile(conf, snapshot);
    p.getFileSystem(conf).delete(p, false);
  }

  /** The owner line and its age, or null when there is no owner file. */
  static Owner readOwner(Configuration conf, String snapshot) throws IOException {
    Path p = ownerFile(conf, snapshot);
    FileSystem fs = p.getFileSystem(conf);
    if (!fs.exists(p)) {
      return null;
    }
    try (java.io.InputStream in = fs.open(p)) {
      return new Owner(
          new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8),
          RunLease.age(fs, p));
    }
  }
}

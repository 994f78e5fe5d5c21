package dev.rekey.jobs.backfill.staging;

import dev.rekey.common.RekeyException;
import dev.rekey.common.RunLease;
import dev.rekey.common.RunOwner;
import dev.rekey.read.RegionReader;
import dev.rekey.targets.Target;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.util.CommonFSUtils;

/**
 * A lock file owned by one backfill run: created only if absent ({@code create(path,
 * overwrite=false)}, atomic on HDFS), holding who took it, deleted when the run ends. Two runs that
 * share a staging dir (or a target table) would otherwise clean and load each other's HFiles; the
 * second refuses at once instead. Its holder renews it while it runs ({@link RunLease}); a lock
 * whose holder is gone ({@link RunOwner#stale}: a process of this host that no longer runs, an
 * earlier attempt of this YARN application, a lease not renewed on any host) is taken over, with a
 * note: a resume after a crash, or YARN's retry of a killed application master, just works.
 */
public final class RunLock implements AutoCloseable {
  private final FileSystem fs;
  private final Path path;
  private final RunLease lease;
  private final boolean fromEarlierAttempt;

  private RunLock(FileSystem fs, Path path, boolean fromEarlierAttempt) {
    this.fs = fs;
    this.path = path;
    this.lease = RunLease.renew(fs, path);
    this.fromEarlierAttempt = fromEarlierAttempt;
  }

  /**
   * Taken over from an earlier attempt of this Spark application (YARN's retry of a killed
   * application master): this run continues what that attempt left.
   */
  public boolean fromEarlierAttempt() {
    return fromEarlierAttempt;
  }

  /**
   * Takes the lock at {@code path} or refuses, naming {@code what} is locked, the owner and how to
   * clear a stale lock.
   */
  public static RunLock take(
      Path path, Configuration conf, String verb, String what, Consumer<String> progress) {
    try {
      FileSystem fs = path.getFileSystem(conf);
      fs.mkdirs(path.getParent());
      boolean earlier = false;
      for (int attempt = 0; attempt < 2; attempt++) {
        String me = RunOwner.line();
        try (OutputStream out = fs.create(path, false)) {
          out.write((me + "\n").getBytes(StandardCharsets.UTF_8));
          return new RunLock(fs, path, earlier);
        } catch (FileAlreadyExistsException e) {
          String owner = owner(fs, path);
          java.util.Optional<String> gone =
              RunOwner.stale(owner, RunLease.age(fs, path), RunLease.LEASE_MILLIS, me);
          if (attempt == 0 && gone.isPresent()) {
            progress.accept(
                "Taking over "
                    + path
                    + " from a run that no longer runs ("
                    + owner
                    + "): "
                    + gone.get());
            earlier = RunOwner.earlierAttempt(owner, me);
            fs.delete(path, false);
            continue;
          }
          throw RekeyException.refused(
              "Cannot %s: %s is in use by another backfill (%s, lock %4$s, renewed every %5$d s"
                  + " while it runs). Wait for it to finish; a lock its holder stops renewing is"
                  + " taken over after %6$d s",
              verb, what, owner, path, RunLease.RENEW_MILLIS / 1000, RunLease.LEASE_MILLIS / 1000);
        }
      }
      throw RekeyException.cannot("Cannot %s: could not take the lock %s", verb, path);
    } catch (IOException e) {
      throw RekeyException.cannot(
          e,
          "Cannot %s: cannot write the lock %s: %s (check that the directory is writable)",
          verb,
          path,
          e.getMessage());
    }
  }

  private static String owner(FileSystem fs, Path path) {
    try (InputStream in = fs.open(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return "owner unknown: " + e.getMessage();
    }
  }

  @Override
  public void close() {
    lease.close();
    try {
      fs.delete(path, false);
    } catch (IOException e) {
      throw RekeyException.cannot(
          e, "Could not remove the lock %s: %s (delete it by hand)", path, e.getMessage());
    }
  }

  /**
   * Where the lock on a target table lives: on the HBase root's filesystem, beside rekey's restore
   * dirs, under the cluster's id: standalone HBases on one machine share a local /tmp, and their
   * tables of one name are different tables.
   */
  public static Path targetPath(Configuration hbaseConf, Admin admin, TableName table)
      throws IOException {
    Path root = CommonFSUtils.getRootDir(hbaseConf);
    FileSystem fs = root.getFileSystem(hbaseConf);
    String cluster =
        admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.CLUSTER_ID)).getClusterId();
    return fs.makeQualified(
        new Path(
            RegionReader.defaultRestoreRoot(fs).getParent(),
            String.format(
                "rekey-locks/%s/backfill-%s.lock",
                cluster, Target.folderName(table.getNameAsString()))));
  }
}

package dev.rekey.read;

import dev.rekey.common.RekeyException;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.shaded.protobuf.generated.SnapshotProtos;
import org.apache.hadoop.hbase.snapshot.SnapshotDescriptionUtils;
import org.apache.hadoop.hbase.util.CommonFSUtils;

/**
 * Whether a snapshot a job reads is still there and unexpired. A job reads a snapshot's HFiles
 * through links; once the snapshot is deleted (by hand, or by HBase's cleaner when its TTL passes),
 * the files only it kept may be removed at any moment, so a read that overlapped the deletion
 * completed by luck, and its result is not the snapshot's. Jobs check before they start and again
 * after their last read, before anything is loaded or written.
 */
public final class SnapshotPresence {
  private SnapshotPresence() {}

  /**
   * Why snapshot {@code name}, with this TTL (s) and creation time, has expired, if it has. Pure.
   */
  public static Optional<String> expiry(
      String name, long ttlSeconds, long creationMillis, long nowMillis) {
    if (SnapshotDescriptionUtils.isExpiredSnapshot(ttlSeconds, creationMillis, nowMillis)) {
      return Optional.of(
          "snapshot "
              + name
              + " expired at "
              + Instant.ofEpochMilli(creationMillis + ttlSeconds * 1000L)
              + " (TTL "
              + ttlSeconds
              + " s from "
              + Instant.ofEpochMilli(creationMillis)
              + "; HBase's cleaner may delete it and the files only it keeps at any moment)");
    }
    return Optional.empty();
  }

  /**
   * {@link #problem} for the snapshot as the HBase root's filesystem holds it now: what the master
   * lists is its completed snapshot dirs, and a job that reads a snapshot's files reads that
   * filesystem already — no ZooKeeper session or master RPC for a job that needs no cluster.
   */
  public static Optional<String> problem(Configuration conf, String name) throws IOException {
    Path root = CommonFSUtils.getRootDir(conf);
    FileSystem fs = root.getFileSystem(conf);
    Path dir = SnapshotDescriptionUtils.getCompletedSnapshotDir(name, root);
    if (!fs.exists(dir)) {
      return gone(name);
    }
    SnapshotProtos.SnapshotDescription d;
    try {
      d = SnapshotDescriptionUtils.readSnapshotInfo(fs, dir);
    } catch (IOException e) {
      if (!fs.exists(dir)) { // deleted between the two looks
        return gone(name);
      }
      throw e;
    }
    return expiry(name, d.getTtl(), d.getCreationTime(), System.currentTimeMillis());
  }

  private static Optional<String> gone(String name) {
    return Optional.of("snapshot " + name + " does not exist any more");
  }

  /**
   * After a job's last read: throws if the snapshot went away (or expired) while the job read it.
   * {@code cannot} is the message's start ("Cannot backfill T"), {@code state} what the job leaves
   * ("Nothing was loaded").
   */
  public static void requireAfterRead(Configuration conf, String name, String cannot, String state)
      throws IOException {
    Optional<String> p = problem(conf, name);
    if (p.isPresent()) {
      throw RekeyException.cannot(
          "%s: %s, and the job was reading it (the files only the snapshot kept"
              + " may have been removed under the read, so what was read is not known to"
              + " be the snapshot's content). %s. Take the snapshot again (without a"
              + " TTL, or with one longer than the job) and rerun.",
          cannot, p.get(), state);
    }
  }
}

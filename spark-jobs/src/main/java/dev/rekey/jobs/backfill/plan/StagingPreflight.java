package dev.rekey.jobs.backfill.plan;

import dev.rekey.common.ObjectStores;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.staging.Staging;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.StringUtils.TraditionalBinaryPrefix;

/**
 * Pre-flight of the staging dir, before the snapshot is read: a backfill that can write no HFile,
 * or not all of them, otherwise fails only after the read, as a Spark "Job aborted" with the cause
 * (Mkdirs failed, No space left on device) buried in task stack traces.
 */
final class StagingPreflight {
  /**
   * What the probe writes: enough to hit a full disk's last blocks, small enough to cost nothing.
   */
  static final int PROBE_BYTES = 64 * 1024;

  private StagingPreflight() {}

  /**
   * Refuses, naming the dir and the cause, when the dir cannot be written or has less free space
   * than needed.
   */
  static void check(Staging staging, String verb, long neededBytes, String neededWhat) {
    // unique per run: two runs in one JVM (or racing for the dir's lock) must not delete each
    // other's probe
    Path probe =
        new Path(
            staging.root,
            String.format(
                "_preflight-%d-%s",
                ProcessHandle.current().pid(),
                java.util.UUID.randomUUID().toString().substring(0, 8)));
    try {
      if (!staging.fs.mkdirs(staging.root)) {
        throw new IOException("Mkdirs failed to create " + staging.root);
      }
      try (OutputStream out = staging.fs.create(probe, true)) {
        out.write(new byte[PROBE_BYTES]);
      }
    } catch (IOException | RuntimeException | org.apache.hadoop.fs.FSError e) {
      // FSError: how Hadoop's local filesystem reports a disk error such as ENOSPC (an Error, not
      // an IOException)
      ObjectStores.explain(
              verb,
              "the staging pre-flight (nothing read yet)",
              staging.root,
              staging.fs.getConf(),
              e,
              "rerun")
          .ifPresent(
              s3 -> {
                throw s3;
              });
      throw RekeyException.cannot(
          e,
          "Cannot %s: staging dir %s is not writable: %s (fix its permissions or free space, or"
              + " choose another --staging)",
          verb,
          staging.root,
          cause(e));
    } finally {
      try {
        staging.fs.delete(probe, false);
      } catch (IOException e) {
        // nothing was written, or the dir is gone: the error above says so
      }
    }
    long free;
    try {
      free = staging.fs.getStatus(staging.root).getRemaining();
    } catch (IOException e) {
      return; // a filesystem that cannot say its free space: the probe write is the check
    }
    spaceProblem(free, neededBytes, neededWhat)
        .ifPresent(
            p -> {
              throw RekeyException.cannot(
                  "Cannot %s: staging dir %s %s (free space there, or choose another --staging)",
                  verb, staging.root, p);
            });
  }

  /** Why {@code free} bytes are not enough for {@code needed}; empty when they are. Pure. */
  static Optional<String> spaceProblem(long free, long needed, String neededWhat) {
    if (free >= needed) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            "has %s free, and the HFiles need about %s (%s)",
            bytes(free), bytes(needed), neededWhat));
  }

  static String bytes(long n) {
    return TraditionalBinaryPrefix.long2String(n, "B", 1);
  }

  /** The innermost cause, with its type when the message alone would not say what it is. */
  private static String cause(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String m = root.getMessage();
    return m == null ? root.getClass().getSimpleName() : root.getClass().getSimpleName() + ": " + m;
  }
}

package dev.rekey.testing;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.apache.spark.TaskContext;

/**
 * A local filesystem ({@code fs.file.impl}) that lets a test fault the files one Spark write
 * partition's attempts create: under a write attempt's dir ({@code /attempts/}, on both write
 * paths), in the partition the conf names under {@link #partitionKey()}. Everything else — the
 * driver, the read, the quarantine, the load's copies — writes as usual.
 */
abstract class WriteAttemptFaults extends LocalFileSystem {
  /** The write partition whose attempts are faulted. */
  static final String PARTITION = "rekey.test.faultedWrites.partition";

  /**
   * Makes {@code fs} the local filesystem of {@code c}, uncached (FileSystem.get caches one
   * instance per scheme whatever the conf, and the driver's cached one would fault nothing), its
   * fault on write partition {@code p}.
   */
  static void install(
      org.apache.hadoop.conf.Configuration c, Class<? extends WriteAttemptFaults> fs, int p) {
    c.set("fs.file.impl", fs.getName());
    c.setBoolean("fs.file.impl.disable.cache", true);
    c.setInt(PARTITION, p);
  }

  /** A jar of a fault's classes and this one, for the driver and executors of bin/rekey. */
  static java.nio.file.Path jar(java.nio.file.Path file, Class<?>... classes) throws IOException {
    Class<?>[] all = java.util.Arrays.copyOf(classes, classes.length + 1);
    all[classes.length] = WriteAttemptFaults.class;
    return TestJar.of(file, all);
  }

  /** The stream a faulted attempt writes {@code f} through. */
  protected abstract FSDataOutputStream inAttempt(FSDataOutputStream out, TaskContext tc, Path f)
      throws IOException;

  @Override
  public FSDataOutputStream create(
      Path f,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    FSDataOutputStream out =
        super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
    TaskContext tc = TaskContext.get();
    String path = f.toUri().getPath();
    boolean writeAttempt = path.contains("/attempts/");
    if (tc == null || !writeAttempt || tc.partitionId() != getConf().getInt(PARTITION, -1)) {
      return out;
    }
    return inAttempt(out, tc, f);
  }
}

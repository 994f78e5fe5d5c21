package dev.rekey.testing;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;

/**
 * A straggler from the test classpath, the way {@link FailingWrites} injects a failure: a local
 * filesystem ({@code fs.file.impl}) on which the first attempt of one Spark write partition writes
 * the first bytes of an HFile under a write attempt's dir ({@code /attempts/}, on both write paths)
 * and then hangs — until Spark kills it (it interrupts the losing attempt once another attempt of
 * the task succeeded) or {@link #CAP} passes. Later attempts of that partition (a speculative copy)
 * write as usual.
 *
 * <p>Each attempt leaves a marker file in the directory {@link #MARKERS} names, holding the host
 * and executor it ran on: {@code original-pP} when the first attempt starts hanging, {@code
 * original-pP-killed} (with Spark's kill reason) or {@code original-pP-not-killed} when it stops,
 * {@code copy-pP-aN} when attempt N starts writing. They show whether a speculative copy ran,
 * where, and what became of the original.
 *
 * <p>Through bin/rekey: {@link #site} as {@code --hbase-site}, {@link #jar} on the driver's ({@code
 * REKEY_CLASSPATH}) and the executors' classpath.
 */
public final class SlowWrites {
  /** Directory (local path) of the marker files. */
  public static final String MARKERS = "rekey.test.slowWrites.markers";

  /** Longest a first attempt hangs when nobody kills it; it then writes on as usual. */
  static final long CAP = TimeUnit.MINUTES.toNanos(3);

  /** Attempts that hung until the cap and write on as usual since. */
  private static final Set<Long> RELEASED = ConcurrentHashMap.newKeySet();

  /** Bytes the first attempt writes to a file before it hangs. */
  static final int AFTER_BYTES = 100;

  private SlowWrites() {}

  private static void install(Configuration c, int p, Path markers) {
    WriteAttemptFaults.install(c, FileSystem.class, p);
    c.set(MARKERS, markers.toAbsolutePath().toString());
  }

  /** An hbase-site.xml for bin/rekey: the embedded server's client site with the straggler. */
  public static Path site(Path dir, int p, Path markers) throws IOException {
    return FailingWrites.site(
        dir.resolve("hbase-site-slow-writes.xml"), c -> install(c, p, markers));
  }

  /** A jar of this class and its filesystem, for the driver and executors of bin/rekey. */
  public static Path jar(Path dir) throws IOException {
    return WriteAttemptFaults.jar(
        dir.resolve("slow-writes.jar"), SlowWrites.class, FileSystem.class, HangingStream.class);
  }

  /** Writes a marker file (replacing one of the same name) holding where this attempt runs. */
  static void mark(Configuration conf, String name, String more) throws IOException {
    SparkEnv env = SparkEnv.get();
    String where =
        "host="
            + env.blockManager().blockManagerId().host()
            + " executor="
            + env.executorId()
            + (more.isEmpty() ? "" : " " + more)
            + "\n";
    Path dir = Path.of(conf.get(MARKERS));
    Files.createDirectories(dir);
    Files.writeString(
        dir.resolve(name),
        where,
        StandardCharsets.UTF_8,
        StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE);
  }

  /** The local filesystem with the straggler: {@code fs.file.impl}. */
  public static final class FileSystem extends WriteAttemptFaults {
    @Override
    protected FSDataOutputStream inAttempt(
        FSDataOutputStream out, TaskContext tc, org.apache.hadoop.fs.Path f) throws IOException {
      int p = tc.partitionId();
      if (tc.attemptNumber() > 0) {
        String name = "copy-p" + p + "-a" + tc.attemptNumber();
        if (!Files.exists(Path.of(getConf().get(MARKERS), name))) {
          mark(getConf(), name, "");
        }
        return out;
      }
      return new FSDataOutputStream(new HangingStream(out, getConf(), tc, p), null);
    }
  }

  /** Passes the first bytes through, then hangs until the attempt is killed or the cap passes. */
  static final class HangingStream extends FilterOutputStream {
    private final Configuration conf;
    private final TaskContext tc;
    private final int partition;
    private long written;

    HangingStream(OutputStream out, Configuration conf, TaskContext tc, int partition) {
      super(out);
      this.conf = conf;
      this.tc = tc;
      this.partition = partition;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      boolean free = RELEASED.contains(tc.taskAttemptId());
      int pass = free ? len : (int) Math.max(0, Math.min(len, AFTER_BYTES - written));
      out.write(b, off, pass);
      written += pass;
      if (pass < len) {
        hang();
        out.write(b, off + pass, len - pass);
        written += len - pass;
      }
    }

    private void hang() throws IOException {
      if (killed()) {
        // a later stream of the killed attempt (its writers being closed): fail at once
        throw new InterruptedIOException("attempt killed: " + tc.getKillReason());
      }
      out.flush(); // the partial file is on disk, as a straggler's would be
      mark(conf, "original-p" + partition, "attempt=" + tc.attemptNumber());
      long deadline = System.nanoTime() + CAP;
      while (!killed() && System.nanoTime() < deadline) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
      }
      if (killed()) {
        String reason = tc.getKillReason().isDefined() ? tc.getKillReason().get() : "interrupted";
        mark(conf, "original-p" + partition + "-killed", "reason=" + reason);
        throw new InterruptedIOException("attempt killed while hanging: " + reason);
      }
      mark(conf, "original-p" + partition + "-not-killed", "");
      RELEASED.add(tc.taskAttemptId()); // its other files write on too
    }

    /** Spark marks the context before it interrupts the thread; either shows a kill. */
    private boolean killed() {
      return tc.isInterrupted() || Thread.currentThread().isInterrupted();
    }
  }
}

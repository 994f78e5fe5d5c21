package dev.rekey.testing;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.spark.TaskContext;

/**
 * Fault injection from the test classpath, without production code knowing: a local filesystem
 * ({@code fs.file.impl}) whose HFile writes fail inside one Spark write partition's first attempts
 * — after a few bytes, so a partial file is left behind as a crashed task would leave it. Only
 * files created by a task under a write attempt's dir ({@code /attempts/}, on both write paths) are
 * touched; the driver, the read, the quarantine and the load's copies write as usual.
 *
 * <p>In-process, pass {@link #conf} to the job; through {@code bin/rekey}, pass {@link #site} as
 * {@code --hbase-site} and {@link #jar} as {@code --conf spark.jars=...}.
 */
public final class FailingWrites {
  /** How many of its attempts fail (attempt numbers below this); large = every attempt. */
  public static final String ATTEMPTS = "rekey.test.failWrites.attempts";

  /** Bytes an attempt writes to a file before the write fails. */
  static final int AFTER_BYTES = 100;

  private FailingWrites() {}

  /** A copy of {@code base} on which partition {@code p}'s first {@code attempts} attempts fail. */
  public static Configuration conf(Configuration base, int p, int attempts) {
    Configuration c = new Configuration(base);
    install(c, p, attempts);
    return c;
  }

  private static void install(Configuration c, int p, int attempts) {
    WriteAttemptFaults.install(c, FileSystem.class, p);
    c.setInt(ATTEMPTS, attempts);
  }

  /**
   * An hbase-site.xml for bin/rekey: the embedded server's client site with the fault installed.
   */
  public static Path site(Path dir, int p, int attempts) throws IOException {
    return site(dir.resolve("hbase-site-failing-writes.xml"), c -> install(c, p, attempts));
  }

  /** The embedded server's client site with a fault's settings added, written to {@code out}. */
  static Path site(Path out, Consumer<Configuration> fault) throws IOException {
    Configuration c = new Configuration(false);
    c.addResource(new org.apache.hadoop.fs.Path(SharedHBase.server().clientSite().toUri()));
    fault.accept(c);
    Files.createDirectories(out.getParent());
    try (OutputStream o = Files.newOutputStream(out)) {
      c.writeXml(o);
    }
    return out;
  }

  /** A jar holding this class and its filesystem, for the driver and executors of bin/rekey. */
  public static Path jar(Path dir) throws IOException {
    return WriteAttemptFaults.jar(
        dir.resolve("failing-writes.jar"),
        FailingWrites.class,
        FileSystem.class,
        FailingStream.class);
  }

  /** The local filesystem with the fault: {@code fs.file.impl}. */
  public static final class FileSystem extends WriteAttemptFaults {
    @Override
    protected FSDataOutputStream inAttempt(
        FSDataOutputStream out, TaskContext tc, org.apache.hadoop.fs.Path f) throws IOException {
      if (tc.attemptNumber() >= getConf().getInt(ATTEMPTS, 1)) {
        return out;
      }
      String what =
          "injected test failure (partition "
              + tc.partitionId()
              + ", attempt "
              + tc.attemptNumber()
              + ", writing "
              + f
              + ")";
      return new FSDataOutputStream(new FailingStream(out, what), null);
    }
  }

  /** Passes the first bytes through, then throws on every write. */
  static final class FailingStream extends FilterOutputStream {
    private final String what;
    private long written;

    FailingStream(OutputStream out, String what) {
      super(out);
      this.what = what;
    }

    @Override
    public void write(int b) throws IOException {
      check(1);
      out.write(b);
      written++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      int pass = (int) Math.max(0, Math.min(len, AFTER_BYTES - written));
      out.write(b, off, pass);
      written += pass;
      if (pass < len) {
        check(len - pass);
      }
    }

    private void check(int more) throws IOException {
      if (written + more > AFTER_BYTES) {
        out.flush();
        throw new IOException(what);
      }
    }
  }
}

package dev.rekey.common;

import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Keeps a lock file's modification time fresh while its run lives: a driver that dies on another
 * host (a killed YARN application master, a lost gateway) stops renewing it, and after {@link
 * #LEASE_MILLIS} the next run takes the lock over instead of refusing until someone deletes it by
 * hand. The lease is long against the renewal (six missed renewals) so that a pause of the driver
 * or of the filesystem does not hand a live run's lock to another.
 */
public final class RunLease implements AutoCloseable {
  /** How often a live holder renews its lock. */
  public static final long RENEW_MILLIS = 30_000;

  /** How long a lock goes unrenewed before its holder is taken for dead. */
  public static final long LEASE_MILLIS = 6 * RENEW_MILLIS;

  private final ScheduledExecutorService timer;

  private RunLease(ScheduledExecutorService timer) {
    this.timer = timer;
  }

  /** Renews {@code file} on {@code fs} every {@link #RENEW_MILLIS} until closed. */
  public static RunLease renew(FileSystem fs, Path file) {
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "rekey-lease " + file.getName());
              t.setDaemon(true);
              return t;
            });
    timer.scheduleWithFixedDelay(
        () -> {
          try {
            fs.setTimes(file, System.currentTimeMillis(), -1);
          } catch (IOException | RuntimeException e) {
            // the next renewal tries again; a lock that stays unrenewed is what a dead run leaves
          }
        },
        RENEW_MILLIS,
        RENEW_MILLIS,
        TimeUnit.MILLISECONDS);
    return new RunLease(timer);
  }

  /** A lease that renews nothing: for a record that could not be written. */
  public static RunLease none() {
    return new RunLease(null);
  }

  /** How long ago {@code file} was last renewed (its modification time). */
  public static long age(FileSystem fs, Path file) throws IOException {
    return Math.max(0, System.currentTimeMillis() - fs.getFileStatus(file).getModificationTime());
  }

  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}

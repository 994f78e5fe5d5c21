package dev.rekey.cli;

import dev.rekey.common.ExitCodes;
import dev.rekey.embedded.EmbeddedHBase;
import java.io.Closeable;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.spark.sql.SparkSession;

/**
 * Ends the CLI with one line when the embedded HBase server its command runs on dies under it.
 * Without it the HBase client retries for minutes, logging each pending row's cells, and the
 * command ends on a ZooKeeper timeout that does not say the server is gone. The watch polls the
 * server's process (a {@link ProcessHandle}: a recycled pid is not taken for it) every {@value
 * #POLL_MILLIS} ms; once it is gone it silences the loggers, stops Spark (a few seconds at most),
 * prints {@link #line} as the last line of stderr and exits with 1. Close it before stopping the
 * server on purpose (the demo's {@code --stop}).
 */
final class ServerWatch implements Closeable {
  static final long POLL_MILLIS = 500;

  /** How long the watch gives Spark to stop before the process exits anyway. */
  static final long STOP_SECONDS = 5;

  /** The line of a server lost, once one was: the watch ends the process, nothing else does. */
  private static final AtomicReference<String> LOST = new AtomicReference<>();

  /** null: watches nothing. */
  private final ScheduledExecutorService poll;

  private ServerWatch(ScheduledExecutorService poll) {
    this.poll = poll;
  }

  /** A watch that watches nothing: the command's HBase is not an embedded server of this host. */
  static final ServerWatch NONE = new ServerWatch(null);

  /**
   * Watches the embedded server whose client configuration is {@code site}, if it is one and it
   * runs here; else {@link #NONE}.
   */
  static ServerWatch ofSite(Path site, String command, SparkSession spark) {
    return EmbeddedHBase.ofClientSite(site).map(hbase -> of(hbase, command, spark)).orElse(NONE);
  }

  /** Watches {@code hbase}'s server process while {@code command} runs on it. */
  static ServerWatch of(EmbeddedHBase hbase, String command, SparkSession spark) {
    Optional<ProcessHandle> server = hbase.runningProcess();
    if (server.isEmpty()) {
      return NONE;
    }
    ProcessHandle process = server.get();
    String line =
        line(
            command, process.pid(), hbase.runDir(), hbase.logFile(), EmbeddedHBase.defaultRunDir());
    ScheduledExecutorService poll =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "rekey-server-watch");
              t.setDaemon(true);
              return t;
            });
    poll.scheduleWithFixedDelay(
        () -> {
          if (!process.isAlive()) {
            lost(line, spark);
          }
        },
        POLL_MILLIS,
        POLL_MILLIS,
        TimeUnit.MILLISECONDS);
    return new ServerWatch(poll);
  }

  /**
   * The one line a command ends with when its server is gone: what, why and how to start it again
   * ({@code --run-dir} named when it is not the default one).
   */
  static String line(String command, long pid, Path runDir, Path log, Path defaultRunDir) {
    String dir = runDir.equals(defaultRunDir) ? "" : " --run-dir " + runDir;
    return String.format(
        "Error: Cannot run rekey %s: the embedded HBase server it runs on (pid %d) is gone (its"
            + " log: %s; start it again with bin/rekey hbase start%s, or bin/rekey demo%s)",
        command, pid, log, dir, dir);
  }

  /** True once a watched server was lost: the watch is ending the process. */
  static boolean lost() {
    return LOST.get() != null;
  }

  /**
   * Blocks a thread that would end the process otherwise (the CLI's exit), while a lost server's
   * watch ends it with its own line.
   */
  static void yieldIfLost() {
    while (lost()) {
      try {
        Thread.sleep(1_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static void lost(String line, SparkSession spark) {
    if (!LOST.compareAndSet(null, line)) {
      return;
    }
    // nothing after this line: the loggers (the client's failed rows) and direct prints go quiet
    PrintStream err = System.err;
    Configurator.setAllLevels(LogManager.ROOT_LOGGER_NAME, Level.OFF);
    PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
    System.setErr(nowhere);
    System.setOut(nowhere);
    if (spark != null) {
      Thread stop = new Thread(spark::stop, "rekey-stop-spark");
      stop.setDaemon(true);
      stop.start();
      try {
        stop.join(TimeUnit.SECONDS.toMillis(STOP_SECONDS));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    err.println(line);
    err.flush();
    Runtime.getRuntime().halt(ExitCodes.FAILURE);
  }

  /** Stops watching: the command is over, or stops the server itself. */
  @Override
  public void close() {
    if (poll != null) {
      poll.shutdownNow();
    }
  }
}

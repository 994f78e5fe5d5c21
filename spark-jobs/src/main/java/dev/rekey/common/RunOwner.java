package dev.rekey.common;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;

/**
 * Who runs a job, as one line ({@code host pid startedAt [app=ID attempt=N]}), and whether such a
 * line names a process that is gone: what lets a run tell a killed run's leftovers from those of a
 * run still going. A process on this host is known to be gone when its pid no longer runs; one on
 * another host only from what outlives it: a later attempt of the same Spark application (YARN
 * starts one only after the earlier attempt's driver died), or a lease it stopped renewing ({@link
 * #stale}).
 */
public final class RunOwner {
  private RunOwner() {}

  /** This process: {@code host pid startedAt}, and its Spark application and attempt if any. */
  public static String line() {
    String base = host() + " " + ProcessHandle.current().pid() + " " + Instant.now();
    return application().map(a -> base + " " + a).orElse(base);
  }

  /**
   * True if {@code owner} names this host and a process id that does not run here (not this one).
   */
  public static boolean deadOnThisHost(String owner) {
    String[] parts = owner.trim().split(" ");
    if (parts.length < 2 || !parts[0].equals(host())) {
      return false;
    }
    try {
      long pid = Long.parseLong(parts[1]);
      return pid != ProcessHandle.current().pid()
          && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /**
   * Why the run {@code owner} names (a lock's) no longer runs, or empty when it may still run. Pure
   * but for {@link #deadOnThisHost}'s look at this host's processes.
   *
   * @param renewedMillisAgo how long ago its holder last renewed it
   * @param leaseMillis how long a live holder goes at most without renewing it
   * @param me this process's {@link #line()}
   */
  public static Optional<String> stale(
      String owner, long renewedMillisAgo, long leaseMillis, String me) {
    if (deadOnThisHost(owner)) {
      return Optional.of("its process on this host no longer runs");
    }
    if (earlierAttempt(owner, me)) {
      return Optional.of(
          "it is attempt "
              + field(owner, "attempt").orElseThrow()
              + " of this application, which its resource manager ended before starting this"
              + " attempt");
    }
    if (renewedMillisAgo > leaseMillis) {
      return Optional.of(
          String.format(
              "its holder last renewed it %d s ago, and a live one renews it every %d s",
              renewedMillisAgo / 1000, RunLease.RENEW_MILLIS / 1000));
    }
    return Optional.empty();
  }

  /**
   * True if {@code owner} is another attempt of the Spark application {@code me} belongs to: one
   * the cluster manager ended before it started this one. Pure.
   */
  public static boolean earlierAttempt(String owner, String me) {
    Optional<String> app = field(owner, "app");
    Optional<String> attempt = field(owner, "attempt");
    return app.isPresent()
        && app.equals(field(me, "app"))
        && attempt.isPresent()
        && !attempt.equals(field(me, "attempt"));
  }

  /** The value of {@code name=VALUE} in an owner line. */
  static Optional<String> field(String owner, String name) {
    for (String part : owner.trim().split(" ")) {
      if (part.startsWith(name + "=")) {
        return Optional.of(part.substring(name.length() + 1));
      }
    }
    return Optional.empty();
  }

  /**
   * {@code app=ID attempt=N} of the Spark application this driver runs (the attempt only where the
   * cluster manager makes several: YARN), or empty outside Spark.
   */
  private static Optional<String> application() {
    Optional<SparkSession> s =
        scalaOption(SparkSession.getActiveSession())
            .or(() -> scalaOption(SparkSession.getDefaultSession()));
    return s.map(
        session -> {
          String app = "app=" + session.sparkContext().applicationId();
          return scalaOption(session.sparkContext().applicationAttemptId())
              .map(a -> app + " attempt=" + a)
              .orElse(app);
        });
  }

  private static <T> Optional<T> scalaOption(scala.Option<T> o) {
    return o.isDefined() ? Optional.of(o.get()) : Optional.empty();
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown-host";
    }
  }
}

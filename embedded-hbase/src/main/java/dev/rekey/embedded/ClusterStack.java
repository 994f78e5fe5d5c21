package dev.rekey.embedded;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A running stack as a client sees it: the single-host pseudo-distributed cluster ({@link
 * PseudoCluster}) or the several-host one ({@link HostsCluster}, seen from its gateway). What a
 * story that submits jobs to it needs, and nothing of how it was started.
 */
public interface ClusterStack {
  /** The stack's directory. */
  Path dir();

  /** The hbase-site.xml a client passes with --hbase-site. */
  Path clientSite();

  /** Every daemon of the stack runs. */
  boolean running();

  /** {@code spark://HOST:PORT} of the Spark standalone master, when it runs. */
  Optional<String> sparkMasterUrl();

  /** {@code hdfs://HOST:PORT} of the NameNode, when it runs. */
  Optional<String> defaultFs();

  /** The stack's {@code spark-submit}: Spark's own launcher over the stack's jars and configs. */
  Path sparkSubmit();

  /**
   * Where a standalone driver of cluster deploy mode left its stdout: on the worker that ran it.
   */
  Optional<Path> driverStdout(String driverId);

  /**
   * Each daemon of the stack (its role, unique in the stack: {@code regionserver-1}, {@code
   * namenode}, ...) with its pid if alive, its port and its log.
   */
  List<PseudoCluster.ProcessStatus> processes();

  /**
   * The live process of a role of this stack (a recycled pid of another program does not count).
   */
  Optional<ProcessHandle> process(String role);

  /** Kills one daemon at once (SIGKILL), as a crash would: for fault tests; its pid. */
  long kill(String role);

  /**
   * Starts one stopped (or killed) daemon again where it ran, with the stack's configs, and waits
   * until it is ready; nothing when it runs.
   */
  void restart(String role, Duration timeout);

  /** The host name and port a role serves on, as the stack's clients know it. */
  Optional<Endpoint> endpoint(String role);

  /** A daemon's host and port. */
  record Endpoint(String host, int port) {}

  /** Its opening words in a message: "the pseudo-distributed cluster", .... */
  String describe();

  /** The stack in {@code dir}: the several-host one if it owns the directory. */
  static ClusterStack in(Path dir, java.util.function.Consumer<String> out) {
    return HostsCluster.in(dir) ? new HostsCluster(dir, out) : new PseudoCluster(dir, out);
  }
}

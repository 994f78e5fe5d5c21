package dev.rekey.embedded;

import java.nio.file.Path;
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

  /** Its opening words in a message: "the pseudo-distributed cluster", .... */
  String describe();

  /** The stack in {@code dir}: the several-host one if it owns the directory. */
  static ClusterStack in(Path dir, java.util.function.Consumer<String> out) {
    return HostsCluster.in(dir) ? new HostsCluster(dir, out) : new PseudoCluster(dir, out);
  }
}

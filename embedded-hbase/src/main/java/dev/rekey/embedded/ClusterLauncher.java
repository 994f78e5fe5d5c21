package dev.rekey.embedded;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Starts the pseudo-distributed cluster's JVMs: each daemon once the daemons it needs are ready
 * (watching its log for its ready line), the one-off tools (the NameNode format, HBase's stop), all
 * from the cluster's jars with its configs and the Java 17 flags.
 */
final class ClusterLauncher {
  private final PseudoCluster cluster;
  private final Path dir;
  private final Consumer<String> out;

  ClusterLauncher(PseudoCluster cluster, Consumer<String> out) {
    this.cluster = cluster;
    this.dir = cluster.dir();
    this.out = out;
  }

  /**
   * A new NameNode directory is formatted once; later starts keep HDFS and everything HBase stored
   * on it.
   */
  void formatIfNew() throws IOException {
    if (Files.exists(dir.resolve("data/namenode/current/VERSION"))) {
      return;
    }
    List<String> cmd = javaCommand("namenode-format", "-Xmx256m");
    cmd.addAll(
        List.of(
            "org.apache.hadoop.hdfs.server.namenode.NameNode",
            "-format",
            "-nonInteractive",
            "-clusterid",
            "rekey"));
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("logs/namenode-format.out").toFile())
            .start();
    try {
      if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new EmbeddedHBaseException(
            String.format(
                "Cannot format HDFS in %s: the NameNode format failed (see %s)",
                dir.resolve("data/namenode"), cluster.logFile("namenode-format")));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EmbeddedHBaseException("Interrupted while formatting HDFS");
    }
  }

  /**
   * Launches each daemon once the daemons it needs are ready ({@link StartOrder}); returns when all
   * are ready.
   */
  void launchInOrder(List<ClusterDaemon> daemons, Duration timeout) throws IOException {
    StartOrder.run(
        daemons.stream()
            .map(
                d ->
                    new StartOrder.Step(
                        d.role(),
                        "",
                        d.after(),
                        cluster.logFile(d.role()),
                        d.readyLine(),
                        dir.resolve("logs/" + d.role() + ".out"),
                        () -> launch(d)))
            .toList(),
        timeout,
        "the cluster",
        dir.resolve("logs"),
        out);
  }

  private Process launch(ClusterDaemon d) throws IOException {
    Files.deleteIfExists(cluster.logFile(d.role()));
    List<String> cmd = new ArrayList<>(javaCommand(d.role(), d.heap()));
    cmd.add(d.mainClass());
    d.args().forEach(a -> cmd.add(a.replace("@DIR@", dir.toString())));
    return Daemons.launch(
        cmd,
        dir.resolve("logs/" + d.role() + ".out"),
        cluster.pidFile(d.role()),
        // the NodeManager starts containers with $JAVA_HOME/bin/java
        Map.of(
            "JAVA_HOME",
            System.getProperty("java.home"),
            "HADOOP_CONF_DIR",
            cluster.hadoopConfDir().toString()));
  }

  List<String> javaCommand(String role, String heap) throws IOException {
    return new DaemonJvm(role, heap, dir, cluster.logFile(role), dir.resolve("logs"))
        .command(
            String.join(
                File.pathSeparator,
                cluster.hadoopConfDir().toString(),
                dir.resolve("conf/hbase").toString(),
                dir.resolve("conf/web").toString(),
                EmbeddedHBase.serverClasspath()));
  }
}

package dev.rekey.cli;

import dev.rekey.common.ExitCodes;
import dev.rekey.embedded.LocalSparkCluster;
import dev.rekey.embedded.PseudoCluster;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * rekey cluster start|stop|status: the pseudo-distributed stack (HDFS, ZooKeeper, HBase x2, Spark,
 * YARN).
 */
@Command(
    name = "cluster",
    mixinStandardHelpOptions = true,
    description =
        "Start, stop or show a pseudo-distributed cluster on 127.0.0.1, each part its own process: HDFS "
            + "(NameNode + DataNode), ZooKeeper, HBase (master + 2 RegionServers on hdfs://), a Spark standalone master "
            + "+ worker and YARN (ResourceManager + NodeManager).")
public final class ClusterCommand extends DaemonCommand {
  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description =
          "Where the cluster keeps configs, data, logs and pids (default: $REKEY_RUN_DIR/cluster, else .rekey/cluster).")
  Path dir;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "180",
      description =
          "How long to wait for start or for each process to stop (default: ${DEFAULT-VALUE}).")
  int timeoutSeconds;

  private PseudoCluster cluster() {
    return new PseudoCluster(dir != null ? dir : PseudoCluster.defaultDir(), System.out::println);
  }

  @Override
  int start() {
    PseudoCluster cluster = cluster();
    cluster.start(
        LocalSparkCluster.jarsOf(
            System.getProperty("java.class.path"), Path.of(SparkSubmitLauncher.applicationJar())),
        Duration.ofSeconds(timeoutSeconds));
    return printStatus(cluster);
  }

  @Override
  int stop() {
    PseudoCluster cluster = cluster();
    cluster.stop(Duration.ofSeconds(Math.min(timeoutSeconds, 60)));
    System.out.println("Cluster stopped (data kept in " + cluster.dir().resolve("data") + ")");
    return ExitCodes.OK;
  }

  @Override
  int status() {
    return printStatus(cluster());
  }

  static int printStatus(PseudoCluster cluster) {
    var all = cluster.status();
    boolean up = all.stream().allMatch(s -> s.pid().isPresent());
    boolean down = all.stream().noneMatch(s -> s.pid().isPresent());
    System.out.println(
        "Cluster " + cluster.dir() + ": " + (up ? "running" : down ? "stopped" : "PARTLY running"));
    System.out.printf("%-16s %-8s %-6s %s%n", "process", "pid", "port", "log");
    for (var s : all) {
      System.out.printf(
          "%-16s %-8s %-6s %s%n",
          s.role(),
          s.pid().map(String::valueOf).orElse("-"),
          s.port() == null ? "-" : s.port(),
          s.log());
    }
    if (!down) {
      var spark = cluster.spark();
      System.out.printf(
          "HDFS: %s   Spark: %s   YARN: --master yarn with HADOOP_CONF_DIR%n",
          cluster.defaultFs().orElse("?"), spark.masterUrl().orElse("?"));
      System.out.println("client config: " + cluster.clientSite());
      System.out.println("HADOOP_CONF_DIR: " + cluster.hadoopConfDir());
      System.out.println("spark-submit: " + cluster.sparkSubmit());
      System.out.printf(
          "Use from a shell: export PATH=%s:$PATH HADOOP_CONF_DIR=%s%n",
          cluster.sparkSubmit().getParent(), cluster.hadoopConfDir());
    } else {
      System.out.println("Start it with `bin/rekey cluster start`.");
    }
    return up ? ExitCodes.OK : ExitCodes.FAILURE;
  }
}

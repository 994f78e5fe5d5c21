package dev.rekey.cli;

import dev.rekey.common.ExitCodes;
import dev.rekey.embedded.EmbeddedHBaseException;
import dev.rekey.embedded.HostsCluster;
import dev.rekey.embedded.LocalSparkCluster;
import dev.rekey.embedded.PseudoCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * rekey cluster start|stop|status|run: the pseudo-distributed stack (HDFS, ZooKeeper, HBase x2,
 * Spark, YARN) on 127.0.0.1, or with --hosts N spread over hosts that are network namespaces
 * ({@link ClusterHosts}).
 */
@Command(
    name = "cluster",
    mixinStandardHelpOptions = true,
    description =
        "Start, stop or show a pseudo-distributed cluster on 127.0.0.1, each part its own process: HDFS "
            + "(NameNode + DataNode), ZooKeeper, HBase (master + 2 RegionServers on hdfs://), a Spark standalone master "
            + "+ worker and YARN (ResourceManager + NodeManager). With --hosts N the same processes run on a master, "
            + "N worker hosts and a gateway, each a network namespace of this machine (root only); `run HOST -- "
            + "COMMAND...` runs a command on one of them.",
    footer = {"", "Example:", "  bin/rekey cluster start"})
public final class ClusterCommand implements Callable<Integer> {
  enum Action {
    start,
    stop,
    status,
    run
  }

  @Parameters(
      index = "0",
      paramLabel = "start|stop|status|run",
      description = "What to do: ${COMPLETION-CANDIDATES}.")
  Action action;

  @Parameters(
      index = "1..*",
      paramLabel = "HOST -- COMMAND",
      description =
          "For run: the host (gateway, master, worker1..) and, after --, the command to run there.")
  List<String> runArgs = List.of();

  @Option(
      names = "--hosts",
      paramLabel = "N",
      description =
          "Start the stack on N worker hosts + a master + a gateway, each a network namespace with its own"
              + " address (198.18.0.0/15), hostname and /tmp (needs root).")
  Integer hosts;

  @Option(
      names = "--kerberos",
      description =
          "Start the stack kerberized: a KDC (MiniKdc) for realm REKEY.TEST, every daemon with its own"
              + " principal and keytab, HDFS permissions, HBase ACLs and secure bulk load, YARN with"
              + " Kerberos; a job user and an admin principal (status prints their keytabs and the"
              + " realm's krb5.conf: export KRB5_CONFIG=that file).")
  boolean kerberos;

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

  private Path dir() {
    return dir != null ? dir : PseudoCluster.defaultDir();
  }

  private PseudoCluster cluster() {
    return new PseudoCluster(dir(), System.out::println);
  }

  @Override
  public Integer call() throws Exception {
    try {
      if (action == Action.run) {
        return ClusterHosts.run(dir(), runArgs);
      }
      if (!runArgs.isEmpty()) {
        System.err.println(
            "Error: unexpected arguments " + runArgs + " (only run takes a host and a command)");
        return ExitCodes.USAGE;
      }
      if (action == Action.start && hosts != null && kerberos) {
        System.err.println(
            "Error: --kerberos runs on the single-host stack only for now: start it without --hosts");
        return ExitCodes.USAGE;
      }
      if (action == Action.start && hosts != null) {
        return ClusterHosts.start(dir(), hosts, sparkJars(), Duration.ofSeconds(timeoutSeconds));
      }
      if (HostsCluster.in(dir().toAbsolutePath().normalize())) {
        return action == Action.stop
            ? ClusterHosts.stop(dir(), Duration.ofSeconds(Math.min(timeoutSeconds, 60)))
            : action == Action.status ? ClusterHosts.status(dir()) : refuseSingle();
      }
      return switch (action) {
        case start -> start();
        case stop -> stop();
        default -> status();
      };
    } catch (EmbeddedHBaseException e) {
      System.err.println("Error: " + e.getMessage());
      return ExitCodes.FAILURE;
    }
  }

  private int refuseSingle() {
    System.err.println(
        "Error: the several-host stack runs in "
            + dir()
            + ": stop it first (`rekey cluster stop`) to start the single-host cluster there");
    return ExitCodes.FAILURE;
  }

  private static List<Path> sparkJars() {
    return LocalSparkCluster.jarsOf(
        System.getProperty("java.class.path"), Path.of(SparkSubmitLauncher.applicationJar()));
  }

  int start() {
    PseudoCluster cluster = cluster();
    cluster.start(sparkJars(), Duration.ofSeconds(timeoutSeconds), kerberos);
    return printStatus(cluster);
  }

  int stop() {
    PseudoCluster cluster = cluster();
    cluster.stop(Duration.ofSeconds(Math.min(timeoutSeconds, 60)));
    System.out.println("Cluster stopped (data kept in " + cluster.dir().resolve("data") + ")");
    return ExitCodes.OK;
  }

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
      cluster
          .kerberos()
          .ifPresent(
              k -> {
                System.out.println("Kerberos realm " + k.realm() + ", krb5.conf: " + k.krb5Conf());
                System.out.printf(
                    "job principal: %s keytab: %s%n", k.jobPrincipal(), k.jobKeytab());
                System.out.printf(
                    "admin principal: %s keytab: %s%n", k.adminPrincipal(), k.adminKeytab());
                System.out.printf(
                    "Use from a shell: export KRB5_CONFIG=%s, and pass --principal %s --keytab %s%n",
                    k.krb5Conf(), k.jobPrincipal(), k.jobKeytab());
              });
    } else {
      System.out.println("Start it with `bin/rekey cluster start`.");
    }
    return up ? ExitCodes.OK : ExitCodes.FAILURE;
  }
}

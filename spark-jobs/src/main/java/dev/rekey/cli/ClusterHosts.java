package dev.rekey.cli;

import dev.rekey.common.ExitCodes;
import dev.rekey.embedded.HostsCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** What {@code rekey cluster} does with the several-host stack: start, stop, status, run. */
final class ClusterHosts {
  private ClusterHosts() {}

  static int start(Path dir, int workers, List<Path> sparkJars, Duration timeout) {
    if (workers < 1) {
      System.err.println("Error: --hosts takes the number of worker hosts, 1 or more");
      return ExitCodes.USAGE;
    }
    Path abs = dir.toAbsolutePath().normalize();
    if (abs.startsWith("/tmp")) {
      // each host's /tmp is its own: the stack's configs, scripts and logs would vanish inside them
      System.err.println(
          "Error: the several-host stack's directory cannot be under /tmp (each host has its own /tmp): "
              + "pass --dir elsewhere");
      return ExitCodes.USAGE;
    }
    if (!HostsCluster.permitted()) {
      System.err.println(
          "Error: cannot make network namespaces here (needs root and `ip netns add`):"
              + " run the single-host cluster with `bin/rekey cluster start` instead");
      return ExitCodes.FAILURE;
    }
    HostsCluster stack = new HostsCluster(dir, System.out::println);
    stack.start(workers, sparkJars, timeout);
    return status(dir);
  }

  static int stop(Path dir, Duration timeout) {
    HostsCluster stack = new HostsCluster(dir, System.out::println);
    stack.stop(timeout);
    List<String> left = stack.networkLeftovers();
    if (!left.isEmpty()) {
      System.err.println("Error: still there after stop: " + left);
      return ExitCodes.FAILURE;
    }
    System.out.println(
        "Several-host stack stopped, its network removed (HDFS data kept in "
            + dir.toAbsolutePath().normalize().resolve("private")
            + ")");
    return ExitCodes.OK;
  }

  static int status(Path dir) {
    HostsCluster stack = new HostsCluster(dir, System.out::println);
    var hosts = stack.status();
    boolean up = stack.running();
    System.out.println(
        "Several-host stack "
            + dir.toAbsolutePath().normalize()
            + ": "
            + (up ? "running" : "PARTLY running"));
    System.out.printf(
        "%-9s %-14s %-16s %-8s %-6s %s%n", "host", "address", "process", "pid", "port", "log");
    for (var h : hosts) {
      if (h.processes().isEmpty()) {
        System.out.printf("%-9s %-14s %-16s%n", h.name(), h.address(), "(no daemon)");
      }
      for (var p : h.processes()) {
        System.out.printf(
            "%-9s %-14s %-16s %-8s %-6s %s%n",
            h.name(),
            h.address(),
            p.role(),
            p.pid().map(String::valueOf).orElse("-"),
            p.port(),
            p.log());
      }
    }
    System.out.println(
        "HDFS: hdfs://master:8020   Spark: spark://master:7077   YARN: --master yarn");
    System.out.println("client config: " + stack.clientSite());
    System.out.println(
        "Run on a host: bin/rekey cluster run gateway -- COMMAND... (HADOOP_CONF_DIR, HBASE_CONF_DIR,"
            + " SPARK_HOME set; spark-submit on PATH)");
    return up ? ExitCodes.OK : ExitCodes.FAILURE;
  }

  /** {@code run HOST -- COMMAND...}: the command's exit code. */
  static int run(Path dir, List<String> args) throws Exception {
    if (args.size() < 2) {
      System.err.println(
          "Error: run takes a host and a command: cluster run gateway -- COMMAND...");
      return ExitCodes.USAGE;
    }
    if (!HostsCluster.in(dir.toAbsolutePath().normalize())) {
      System.err.println(
          "Error: no several-host stack in "
              + dir
              + ": start one with `bin/rekey cluster start --hosts 2`");
      return ExitCodes.FAILURE;
    }
    return new HostsCluster(dir, System.out::println)
        .run(args.get(0), args.subList(1, args.size()));
  }
}

package dev.rekey.embedded;

import dev.rekey.embedded.HostPlan.Host;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Starts the JVMs of a several-host stack, each on its host ({@link HostShell}): the daemons in
 * order (each once those it needs are ready), and the one-off tools run on the master (the NameNode
 * format, HBase's stop).
 */
final class HostLauncher {
  private final HostPlan plan;
  private final HostShell shell;
  private final Consumer<String> out;

  HostLauncher(HostPlan plan, Consumer<String> out) {
    this.plan = plan;
    this.shell = new HostShell(plan);
    this.out = out;
  }

  Path log(HostDaemon d) {
    return plan.logs(d.host()).resolve(d.role() + ".log");
  }

  Path pidFile(HostDaemon d) {
    return plan.hostDir(d.host()).resolve("pids").resolve(d.role() + ".pid");
  }

  /** Formats HDFS on the master once: its image lives in the master's private local dir. */
  void formatIfNew() throws IOException {
    Host m = plan.master();
    if (Files.exists(plan.privateDir(m).resolve("local/namenode/current/VERSION"))) {
      return;
    }
    Path output = plan.logs(m).resolve("namenode-format.out");
    int exit =
        runOnMaster(
            "namenode-format",
            List.of(
                "org.apache.hadoop.hdfs.server.namenode.NameNode",
                "-format",
                "-nonInteractive",
                "-clusterid",
                "rekey"),
            output,
            Duration.ofSeconds(120));
    if (exit != 0) {
      throw new EmbeddedHBaseException(
          String.format("Cannot format HDFS on host master: the format failed (see %s)", output));
    }
  }

  /** A server-classpath tool on the master host, its output in {@code output}; its exit code. */
  int runOnMaster(String role, List<String> mainAndArgs, Path output, Duration timeout)
      throws IOException {
    Process p = startOnMaster(role, mainAndArgs, output);
    try {
      if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return -1;
      }
      return p.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      return -1;
    }
  }

  /** Starts a server-classpath tool on the master host, its output appended to {@code output}. */
  Process startOnMaster(String role, List<String> mainAndArgs, Path output) throws IOException {
    Host m = plan.master();
    List<String> cmd = javaCommand(role, m, "-Xmx256m", false);
    cmd.addAll(mainAndArgs);
    ProcessBuilder pb =
        new ProcessBuilder(shell.on(m, cmd))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
    pb.environment().putAll(env(m));
    return pb.start();
  }

  /**
   * Launches each daemon on its host once those it needs are ready ({@link StartOrder}); returns
   * when all are ready.
   */
  void launchInOrder(List<HostDaemon> daemons, Duration timeout) throws IOException {
    StartOrder.run(
        daemons.stream()
            .map(
                d ->
                    new StartOrder.Step(
                        d.role(),
                        " on " + d.host().name(),
                        d.after(),
                        log(d),
                        d.readyLine(),
                        plan.logs(d.host()).resolve(d.role() + ".out"),
                        () -> launch(d)))
            .toList(),
        timeout,
        "the stack",
        plan.dir().resolve("hosts"),
        out);
  }

  Process launch(HostDaemon d) throws IOException {
    Files.deleteIfExists(log(d));
    List<String> cmd = javaCommand(d.role(), d.host(), d.heap(), d.spark());
    cmd.add(d.mainClass());
    cmd.addAll(d.args());
    return Daemons.launch(
        shell.on(d.host(), cmd),
        plan.logs(d.host()).resolve(d.role() + ".out"),
        pidFile(d),
        env(d.host()));
  }

  /** A daemon's environment: its host's configs, Spark's home, and the host's own address. */
  private Map<String, String> env(Host h) {
    Map<String, String> env = new LinkedHashMap<>(shell.userEnv(h));
    env.remove("REKEY_HOST");
    // a Spark worker's executors and drivers inherit it: they bind on the worker's own address
    env.put("SPARK_LOCAL_IP", h.address());
    return env;
  }

  private List<String> javaCommand(String role, Host h, String heap, boolean spark) {
    return new DaemonJvm(role, heap, plan.dir(), plan.logs(h).resolve(role + ".log"), plan.logs(h))
        .command(
            spark
                ? String.join(
                    File.pathSeparator, plan.hadoopConf(h).toString(), plan.sparkHome() + "/jars/*")
                : String.join(
                    File.pathSeparator,
                    plan.hadoopConf(h).toString(),
                    plan.hbaseConf(h).toString(),
                    plan.dir().resolve("conf/web").toString(),
                    serverClasspath()));
  }

  private static String serverClasspath() {
    try {
      return EmbeddedHBase.serverClasspath();
    } catch (IOException e) {
      throw new EmbeddedHBaseException("Cannot read the server classpath: " + e.getMessage());
    }
  }
}

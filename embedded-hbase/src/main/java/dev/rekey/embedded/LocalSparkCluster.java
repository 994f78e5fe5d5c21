package dev.rekey.embedded;

import dev.rekey.home.RekeyHome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A real Spark standalone cluster on loopback: one Master process on 127.0.0.1 and one Worker per
 * host asked for (127.0.0.1 by default; several loopback addresses make several hosts to Spark's
 * scheduler, which places a speculative copy only on a host other than the original attempt's),
 * started from the same jars the CLI runs on (linked into {@code <run dir>/spark-home/jars}, the
 * layout Spark's worker expects), free ports, in their own session. Used by the distributed tests
 * and by hand ({@code rekey spark-cluster start}). Workers are the roles {@code worker}, {@code
 * worker-2}, {@code worker-3}, ...
 */
public final class LocalSparkCluster {
  private final Path runDir;
  private final Consumer<String> out;
  private final Map<String, String> env;
  private final Map<String, String> defaults;

  public LocalSparkCluster(Path runDir, Consumer<String> out) {
    this(runDir, out, Map.of(), Map.of());
  }

  /**
   * @param env extra environment of master, worker and spark-submit (HADOOP_CONF_DIR of a cluster
   *     beside it)
   * @param defaults {@code conf/spark-defaults.conf} of the Spark home, read by its spark-submit
   */
  public LocalSparkCluster(
      Path runDir, Consumer<String> out, Map<String, String> env, Map<String, String> defaults) {
    this.runDir = runDir.toAbsolutePath().normalize();
    this.out = out;
    this.env = new TreeMap<>(env);
    this.defaults = new LinkedHashMap<>(defaults);
  }

  /**
   * {@code bin/spark-submit} of this cluster's Spark home: Spark's own launcher over the cluster's
   * jars.
   */
  public Path sparkSubmit() {
    return runDir.resolve("spark-home/bin/spark-submit");
  }

  public static Path defaultRunDir() {
    return RekeyHome.runRoot().resolve("spark");
  }

  /** spark://127.0.0.1:PORT of the running master, if any. */
  public Optional<String> masterUrl() {
    Path f = runDir.resolve("master.url");
    try {
      return running() && Files.exists(f)
          ? Optional.of(Files.readString(f).trim())
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Master and every worker of the last start alive. */
  public boolean running() {
    return alive("master") && workerRoles().stream().allMatch(this::alive);
  }

  /**
   * The worker roles of the last start, from its ports file: {@code worker}, {@code worker-2}...
   */
  private List<String> workerRoles() {
    List<String> roles = new ArrayList<>();
    for (int i = 1; port(workerRole(i)).isPresent(); i++) {
      roles.add(workerRole(i));
    }
    return roles.isEmpty() ? List.of("worker") : roles;
  }

  private static String workerRole(int i) {
    return i == 1 ? "worker" : "worker-" + i;
  }

  /**
   * Starts master and one worker on 127.0.0.1 unless running. {@code jars} are the Spark + Hadoop
   * jars (the CLI's own classpath).
   *
   * @return the master URL
   */
  public String start(List<Path> jars, int workerCores, String workerMemory, Duration timeout) {
    return start(jars, List.of("127.0.0.1"), workerCores, workerMemory, timeout);
  }

  /**
   * Starts master and one worker per host in {@code workerHosts} (loopback addresses such as
   * 127.0.0.2) unless running with as many workers. Each worker and its executors bind and register
   * as their host ({@code --host} and {@code SPARK_LOCAL_IP}), so to Spark they are separate hosts.
   *
   * @return the master URL
   */
  public String start(
      List<Path> jars,
      List<String> workerHosts,
      int workerCores,
      String workerMemory,
      Duration timeout) {
    if (workerHosts.isEmpty()) {
      throw new IllegalArgumentException("a Spark cluster needs at least one worker host");
    }
    try {
      return Daemons.locked(
          runDir, () -> startLocked(jars, workerHosts, workerCores, workerMemory, timeout));
    } catch (IOException e) {
      throw new EmbeddedHBaseException(
          String.format("Cannot start the Spark cluster in %s: %s", runDir, e));
    }
  }

  private String startLocked(
      List<Path> jars,
      List<String> workerHosts,
      int workerCores,
      String workerMemory,
      Duration timeout)
      throws IOException {
    if (running() && workerRoles().size() == workerHosts.size()) {
      String url = masterUrl().orElseThrow();
      out.accept("Spark cluster is already running: " + url);
      return url;
    }
    stopLocked();
    Path home = runDir.resolve("spark-home");
    Daemons.deleteTree(home);
    Files.createDirectories(home.resolve("jars"));
    Files.createDirectories(runDir.resolve("logs"));
    for (Path jar : jars) {
      Path link = home.resolve("jars").resolve(jar.getFileName());
      if (!Files.exists(link)) {
        Files.createSymbolicLink(link, jar.toAbsolutePath());
      }
    }
    SparkSubmitScript.write(home, env, defaults);
    // master, master web UI, then per worker: RPC port and web UI
    int[] ports = Daemons.freePorts(2 + 2 * workerHosts.size());
    String url = "spark://127.0.0.1:" + ports[0];
    StringBuilder portsFile = new StringBuilder("master=" + ports[0] + "\n");
    for (int i = 1; i <= workerHosts.size(); i++) {
      portsFile.append(workerRole(i)).append('=').append(ports[2 * i]).append('\n');
    }
    Files.writeString(runDir.resolve("ports.properties"), portsFile.toString());
    launch(
        "master",
        "127.0.0.1",
        home,
        List.of(
            "org.apache.spark.deploy.master.Master",
            "--host",
            "127.0.0.1",
            "--port",
            Integer.toString(ports[0]),
            "--webui-port",
            Integer.toString(ports[1])));
    waitForLine("master", "I have been elected leader", timeout);
    for (int i = 1; i <= workerHosts.size(); i++) {
      String host = workerHosts.get(i - 1);
      launch(
          workerRole(i),
          host,
          home,
          List.of(
              "org.apache.spark.deploy.worker.Worker",
              "--host",
              host,
              "--port",
              Integer.toString(ports[2 * i]),
              "--cores",
              Integer.toString(workerCores),
              "--memory",
              workerMemory,
              "--webui-port",
              Integer.toString(ports[2 * i + 1]),
              "--work-dir",
              runDir.resolve(i == 1 ? "work" : "work-" + i).toString(),
              url));
    }
    for (int i = 1; i <= workerHosts.size(); i++) {
      waitForLine(workerRole(i), "Successfully registered with master", timeout);
    }
    Files.writeString(runDir.resolve("master.url"), url);
    out.accept(
        "Spark standalone cluster up: "
            + url
            + " ("
            + (workerHosts.size() == 1
                ? "1 worker, "
                : workerHosts.size() + " workers on " + String.join(", ", workerHosts) + ", ")
            + workerCores
            + " cores"
            + (workerHosts.size() == 1 ? ", " : " each, ")
            + workerMemory
            + "); logs in "
            + runDir.resolve("logs"));
    return url;
  }

  /** Stops the workers and the master (SIGTERM, then SIGKILL); a stopped cluster is a no-op. */
  public void stop() {
    try {
      Daemons.locked(runDir, this::stopLocked);
    } catch (IOException e) {
      throw new UncheckedIOException(
          String.format("Cannot stop the Spark cluster in %s: %s", runDir, e.getMessage()), e);
    }
  }

  private Void stopLocked() throws IOException {
    List<String> roles = new ArrayList<>();
    // every worker with a pid file, whichever start wrote it
    try (Stream<Path> files = Files.list(runDir)) {
      files
          .map(f -> f.getFileName().toString())
          .filter(n -> n.matches("worker(-\\d+)?\\.pid"))
          .map(n -> n.substring(0, n.length() - ".pid".length()))
          .sorted()
          .forEach(roles::add);
    }
    roles.add("master");
    for (String role : roles) {
      Optional<ProcessHandle> p = process(role);
      if (p.isPresent()) {
        Daemons.terminate(p.get(), Duration.ofSeconds(20), "Spark " + role, out);
        out.accept("Stopped Spark " + role + " (pid " + p.get().pid() + ")");
      }
      Files.deleteIfExists(pidFile(role));
    }
    return null;
  }

  private void launch(String role, String host, Path home, List<String> args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx512m");
    cmd.addAll(ServerJvmFlags.FLAGS);
    cmd.add("-cp");
    cmd.add(home.resolve("jars") + "/*");
    cmd.addAll(args);
    Map<String, String> daemonEnv = new LinkedHashMap<>();
    // the worker starts executors with $SPARK_HOME/jars; without the Scala version it looks for a
    // source build
    daemonEnv.put("SPARK_HOME", home.toString());
    daemonEnv.put("SPARK_SCALA_VERSION", "2.12");
    daemonEnv.putAll(env);
    // after env: a worker's executors inherit it and must bind on the worker's own host
    daemonEnv.put("SPARK_LOCAL_IP", host);
    Daemons.launch(cmd, log(role), pidFile(role), daemonEnv);
  }

  private void waitForLine(String role, String needle, Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(log(role))
          && Files.readString(log(role), StandardCharsets.ISO_8859_1).contains(needle)) {
        return;
      }
      // alive by its pid alone: a process just started may not show its command line yet
      Optional<ProcessHandle> p = Daemons.live(pidFile(role), cmd -> true);
      if (p.isEmpty()) {
        throw new EmbeddedHBaseException(
            String.format(
                "Spark %s exited during start-up; see %s:\n%s",
                role, log(role), Daemons.tail(log(role))));
      }
      try {
        p.get().onExit().get(250, TimeUnit.MILLISECONDS); // returns early only if it dies
      } catch (java.util.concurrent.TimeoutException e) {
        // still starting
      } catch (Exception e) {
        Thread.currentThread().interrupt();
        throw new EmbeddedHBaseException("Interrupted while starting Spark " + role);
      }
    }
    stop();
    throw new EmbeddedHBaseException(
        String.format(
            "Spark %s did not start within %s s; see %s:\n%s",
            role, timeout.toSeconds(), log(role), Daemons.tail(log(role))));
  }

  /**
   * The live process of "master", "worker" or "worker-N" (its classpath is this run directory's
   * Spark home: a recycled pid of another program does not count).
   */
  public Optional<ProcessHandle> process(String role) {
    return Daemons.live(
        pidFile(role), cmd -> cmd.contains(runDir.resolve("spark-home").toString()));
  }

  private Path pidFile(String role) {
    return runDir.resolve(role + ".pid");
  }

  /** The RPC port of "master", "worker" or "worker-N" of the last start. */
  public Optional<Integer> port(String role) {
    try {
      Path f = runDir.resolve("ports.properties");
      if (!Files.exists(f)) {
        return Optional.empty();
      }
      java.util.Properties p = new java.util.Properties();
      try (var r = Files.newBufferedReader(f)) {
        p.load(r);
      }
      return Optional.ofNullable(p.getProperty(role)).map(Integer::parseInt);
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  public Path log(String role) {
    return runDir.resolve("logs").resolve(role + ".log");
  }

  private boolean alive(String role) {
    return process(role).isPresent();
  }

  /**
   * The jars of a classpath string that a Spark distribution would have: everything but HBase,
   * rekey itself and the libraries only rekey brings, so executors get those from the application
   * jar as on a real cluster.
   */
  public static List<Path> jarsOf(String classpath, Path exclude) {
    try (Stream<String> s = Stream.of(classpath.split(java.io.File.pathSeparator))) {
      return s.filter(e -> e.endsWith(".jar"))
          .map(Path::of)
          .filter(p -> exclude == null || !p.toAbsolutePath().equals(exclude.toAbsolutePath()))
          .filter(
              p -> NOT_IN_A_SPARK_DISTRIBUTION.stream().noneMatch(d -> p.toString().contains(d)))
          .filter(Files::isRegularFile)
          .distinct()
          .toList();
    }
  }

  private static final List<String> NOT_IN_A_SPARK_DISTRIBUTION =
      List.of("/org/apache/hbase/", "/dev/rekey/", "rekey-", "/info/picocli/", "/org/yaml/");
}

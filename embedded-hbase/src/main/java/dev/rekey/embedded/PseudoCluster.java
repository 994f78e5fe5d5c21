package dev.rekey.embedded;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The pseudo-distributed cluster users run, as separate processes on 127.0.0.1 from the project's
 * Maven jars: HDFS (NameNode + DataNode), ZooKeeper, HBase (master + two RegionServers rooted on
 * hdfs://), YARN (ResourceManager + NodeManager) and a Spark standalone master + worker ({@link
 * LocalSparkCluster}).
 *
 * <p>Directory layout: {@code conf/hadoop} (core, hdfs, yarn and capacity-scheduler sites: the
 * HADOOP_CONF_DIR of clients), {@code conf/hbase} (the servers' hbase-site), {@code
 * client/hbase-site.xml} (what jobs pass with --hbase-site), {@code ports.properties}, {@code
 * pids/ROLE.pid}, {@code logs/ROLE.log} (+ {@code .out}), {@code data/} (HDFS blocks and image,
 * ZooKeeper, YARN local dirs), {@code spark/} (the Spark cluster, with {@code
 * spark/spark-home/bin/spark-submit}).
 *
 * <p>Start launches each daemon as soon as the daemons it needs are ready (HDFS and ZooKeeper
 * before HBase, the ResourceManager before the NodeManager), with Spark alongside, and waits for
 * each one's "ready" log line.
 *
 * <p>Kept as one class over ~400 lines on purpose: it is the lifecycle of one cluster directory
 * (set up, start in order, status, stop, kill, restart), and each step reads the same dir, pid
 * files and ports; the pure parts are apart ({@link ClusterSites}, {@link ClusterDaemon#all},
 * {@link LogWatch}, {@link Daemons}).
 */
public final class PseudoCluster {
  static final List<String> ROLES =
      List.of(
          "namenode",
          "datanode",
          "zookeeper",
          "hbase-master",
          "regionserver-1",
          "regionserver-2",
          "resourcemanager",
          "nodemanager");

  /**
   * Memory a YARN NodeManager offers: a client-mode application master and two 1 GB executors fit.
   */
  static final int NODE_MEMORY_MB = 5120;

  static final int NODE_VCORES = 4;

  private final Path dir;
  private final Consumer<String> out;

  public PseudoCluster(Path dir, Consumer<String> out) {
    this.dir = dir.toAbsolutePath().normalize();
    this.out = out;
  }

  /** $REKEY_RUN_DIR/cluster, else {@code <rekey home>/.rekey/cluster}. */
  public static Path defaultDir() {
    return RekeyHome.runRoot().resolve("cluster");
  }

  public Path dir() {
    return dir;
  }

  public Path clientSite() {
    return dir.resolve("client/hbase-site.xml");
  }

  /** HADOOP_CONF_DIR (and YARN_CONF_DIR) for clients: core-site, hdfs-site, yarn-site. */
  public Path hadoopConfDir() {
    return dir.resolve("conf/hadoop");
  }

  public LocalSparkCluster spark() {
    return new LocalSparkCluster(
        dir.resolve("spark"),
        out,
        Map.of(
            "HADOOP_CONF_DIR",
            hadoopConfDir().toString(),
            "YARN_CONF_DIR",
            hadoopConfDir().toString()),
        sparkDefaults());
  }

  /**
   * The spark-submit script of this cluster's Spark (Spark's own launcher over the cluster's jars).
   */
  public Path sparkSubmit() {
    return spark().sparkSubmit();
  }

  public Path logFile(String role) {
    return dir.resolve("logs").resolve(role + ".log");
  }

  public Map<String, Integer> ports() {
    Path f = dir.resolve("ports.properties");
    Map<String, Integer> m = new LinkedHashMap<>();
    if (!Files.exists(f)) {
      return m;
    }
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(f)) {
      p.load(in);
    } catch (IOException e) {
      return m;
    }
    p.stringPropertyNames().forEach(k -> m.put(k, Integer.parseInt(p.getProperty(k))));
    return m;
  }

  /** hdfs://127.0.0.1:PORT of the running NameNode. */
  public Optional<String> defaultFs() {
    Integer nn = ports().get("namenode");
    return nn == null ? Optional.empty() : Optional.of("hdfs://" + ClusterSites.HOST + ":" + nn);
  }

  /**
   * Each process of the cluster with its pid (if alive), port and log; Spark's master and worker
   * included.
   */
  public List<ProcessStatus> status() {
    Map<String, Integer> ports = ports();
    List<ProcessStatus> list = new ArrayList<>();
    for (ClusterDaemon d : ClusterDaemon.all(ports)) {
      list.add(
          new ProcessStatus(
              d.role(),
              process(d.role()).map(ProcessHandle::pid),
              ports.get(d.portKey()),
              logFile(d.role())));
    }
    LocalSparkCluster spark = spark();
    for (String role : List.of("master", "worker")) {
      list.add(
          new ProcessStatus(
              "spark-" + role,
              spark.process(role).map(ProcessHandle::pid),
              spark.port(role).orElse(null),
              spark.log(role)));
    }
    return list;
  }

  public boolean running() {
    return status().stream().allMatch(s -> s.pid().isPresent());
  }

  /** Starts every process that is not running and waits until all are ready. */
  public void start(List<Path> sparkJars, Duration timeout) {
    try {
      Daemons.locked(dir, () -> startLocked(sparkJars, timeout));
    } catch (IOException e) {
      throw new EmbeddedHBaseException(
          "Cannot start the cluster in "
              + dir
              + ": "
              + e
              + " (check that the directory is writable, or remove it to start from scratch)");
    }
  }

  private Void startLocked(List<Path> sparkJars, Duration timeout) throws IOException {
    if (running()) {
      out.accept("The cluster is already running (" + dir + ")");
      return null;
    }
    // a half-running cluster (one process died) restarts whole: its ports and configs belong
    // together
    stopAll(Duration.ofSeconds(30));
    long t0 = System.nanoTime();
    Map<String, Integer> ports = choosePorts();
    writeConfigs(ports);
    formatIfNew();
    // Spark does not depend on the rest: it starts alongside
    CompletableFuture<String> spark =
        CompletableFuture.supplyAsync(() -> spark().start(sparkJars, 2, "2g", timeout));
    try {
      launchInOrder(ClusterDaemon.all(ports), timeout);
      spark.join();
    } catch (RuntimeException e) {
      spark.handle((u, x) -> null).join();
      stopAll(Duration.ofSeconds(30));
      throw e instanceof java.util.concurrent.CompletionException
              && e.getCause() instanceof RuntimeException r
          ? r
          : e;
    }
    out.accept(String.format("Cluster is up in %.1f s (%s)", (System.nanoTime() - t0) / 1e9, dir));
    return null;
  }

  /**
   * Stops every process: Spark, YARN, HBase (cleanly, through the master), ZooKeeper, then HDFS.
   */
  public void stop(Duration timeout) {
    try {
      Daemons.locked(
          dir,
          () -> {
            stopAll(timeout);
            return null;
          });
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot stop the cluster in " + dir + ": " + e.getMessage(), e);
    }
  }

  /** Kills one process at once (SIGKILL), as a crash would: for fault tests and demonstrations. */
  public long kill(String role) {
    ProcessHandle p =
        process(role)
            .orElseThrow(
                () ->
                    new EmbeddedHBaseException(
                        "Cannot kill "
                            + role
                            + ": it is not running (see `rekey cluster status`)"));
    p.destroyForcibly();
    Daemons.waitFor(p, Duration.ofSeconds(10));
    return p.pid();
  }

  /**
   * Starts one stopped (or killed) process again with the cluster's ports and configs, and waits
   * until it is ready.
   */
  public void restart(String role, Duration timeout) {
    if (process(role).isPresent()) {
      return;
    }
    ClusterDaemon d =
        ClusterDaemon.all(ports()).stream()
            .filter(x -> x.role().equals(role))
            .findFirst()
            .orElseThrow(
                () ->
                    new EmbeddedHBaseException(
                        "Cannot restart " + role + ": no such process (one of " + ROLES + ")"));
    try {
      launchInOrder(
          List.of(
              new ClusterDaemon(
                  d.role(),
                  d.mainClass(),
                  d.args(),
                  d.heap(),
                  d.portKey(),
                  d.readyLine(),
                  List.of())),
          timeout);
    } catch (IOException e) {
      throw new EmbeddedHBaseException(
          "Cannot restart "
              + role
              + ": "
              + e.getMessage()
              + " (see `rekey cluster status` and its log)");
    }
  }

  private void stopAll(Duration timeout) throws IOException {
    spark().stop();
    stopRoles(List.of("nodemanager", "resourcemanager"), timeout);
    Optional<ProcessHandle> master = process("hbase-master");
    if (master.isPresent()) {
      // the whole HBase cluster stops through its master: regions closed and flushed, WALs closed
      // on HDFS
      out.accept("Stopping HBase (master pid " + master.get().pid() + ")");
      List<String> cmd = javaCommand("hbase-stop", "-Xmx256m");
      cmd.addAll(List.of(EmbeddedHBase.MAIN_CLASS, "stop", "--shutDownCluster"));
      Process stopper =
          new ProcessBuilder(cmd)
              .redirectErrorStream(true)
              .redirectOutput(
                  ProcessBuilder.Redirect.appendTo(dir.resolve("logs/hbase-stop.out").toFile()))
              .start();
      for (String rs : List.of("hbase-master", "regionserver-1", "regionserver-2")) {
        process(rs).ifPresent(p -> Daemons.waitFor(p, timeout));
      }
      stopper.destroyForcibly();
    }
    stopRoles(
        List.of(
            "hbase-master",
            "regionserver-1",
            "regionserver-2",
            "zookeeper",
            "datanode",
            "namenode"),
        timeout);
  }

  private void stopRoles(List<String> roles, Duration timeout) throws IOException {
    for (String role : roles) {
      Optional<ProcessHandle> p = process(role);
      if (p.isPresent()) {
        Daemons.terminate(p.get(), timeout, role, out);
        out.accept("Stopped " + role + " (pid " + p.get().pid() + ")");
      }
      Files.deleteIfExists(pidFile(role));
    }
  }

  private Map<String, Integer> choosePorts() throws IOException {
    List<String> keys =
        List.of(
            "namenode",
            "namenode.http",
            "datanode",
            "datanode.http",
            "datanode.ipc",
            "zookeeper",
            "hbase.master",
            "regionserver-1",
            "regionserver-2",
            "yarn.rm",
            "yarn.rm.scheduler",
            "yarn.rm.tracker",
            "yarn.rm.admin",
            "yarn.rm.http",
            "yarn.nm",
            "yarn.nm.localizer",
            "yarn.nm.http");
    int[] free = EmbeddedHBase.freePorts(keys.size());
    Map<String, Integer> ports = new LinkedHashMap<>();
    for (int i = 0; i < keys.size(); i++) {
      ports.put(keys.get(i), free[i]);
    }
    Properties p = new Properties();
    ports.forEach((k, v) -> p.setProperty(k, Integer.toString(v)));
    try (var w = Files.newBufferedWriter(dir.resolve("ports.properties"))) {
      p.store(w, "ports of the rekey pseudo-distributed cluster (127.0.0.1)");
    }
    return ports;
  }

  private void writeConfigs(Map<String, Integer> ports) throws IOException {
    ClusterSites sites = new ClusterSites(dir, ports);
    for (String d :
        List.of(
            "conf/hadoop",
            "conf/hbase",
            "client",
            "logs/containers",
            "pids",
            "data/tmp",
            "data/hbase-tmp",
            "data/yarn/local")) {
      Files.createDirectories(dir.resolve(d));
    }
    // ZooKeeper holds nothing HBase cannot rebuild, and stale sessions of a killed cluster would
    // delay the master
    EmbeddedHBase.deleteTree(dir.resolve("data/zookeeper"));
    Files.createDirectories(dir.resolve("data/zookeeper"));
    Files.writeString(hadoopConfDir().resolve("core-site.xml"), sites.coreSite());
    Files.writeString(hadoopConfDir().resolve("hdfs-site.xml"), sites.hdfsSite());
    Files.writeString(
        hadoopConfDir().resolve("yarn-site.xml"), sites.yarnSite(NODE_MEMORY_MB, NODE_VCORES));
    Files.writeString(
        hadoopConfDir().resolve("capacity-scheduler.xml"), ClusterSites.capacitySchedulerSite());
    Files.writeString(dir.resolve("conf/hbase/hbase-site.xml"), sites.hbaseServerSite());
    Files.writeString(dir.resolve("conf/zoo.cfg"), sites.zooCfg());
    Files.writeString(
        dir.resolve("conf/log4j2.properties"), EmbeddedHBase.resource("cluster-log4j2.properties"));
    Files.writeString(clientSite(), sites.hbaseClientSite());
    // HDFS daemons open their web servers from a classpath folder webapps/NAME, which the Maven
    // jars of Hadoop do
    // not ship (the tarball does): empty folders give them their status pages without the UI
    for (String app : List.of("hdfs", "datanode", "secondary", "journal")) {
      Files.createDirectories(dir.resolve("conf/web/webapps").resolve(app));
    }
  }

  /**
   * A new NameNode directory is formatted once; later starts keep HDFS and everything HBase stored
   * on it.
   */
  private void formatIfNew() throws IOException {
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
            "Cannot format HDFS in "
                + dir.resolve("data/namenode")
                + ": the NameNode format failed (see "
                + logFile("namenode-format")
                + ")");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EmbeddedHBaseException("Interrupted while formatting HDFS");
    }
  }

  /** Launches each daemon once the daemons it needs are ready; returns when all are ready. */
  private void launchInOrder(List<ClusterDaemon> daemons, Duration timeout) throws IOException {
    Map<String, Process> launched = new HashMap<>();
    Map<String, LogWatch> watches = new HashMap<>();
    Set<String> ready = new LinkedHashSet<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (ready.size() < daemons.size()) {
      for (ClusterDaemon d : daemons) {
        if (!launched.containsKey(d.role()) && ready.containsAll(d.after())) {
          launched.put(d.role(), launch(d));
          watches.put(d.role(), new LogWatch(logFile(d.role()), d.readyLine()));
        }
      }
      for (ClusterDaemon d : daemons) {
        Process p = launched.get(d.role());
        if (p == null || ready.contains(d.role())) {
          continue;
        }
        if (watches.get(d.role()).seen()) {
          ready.add(d.role());
          out.accept(String.format("  %-16s ready (pid %d)", d.role(), p.pid()));
        } else if (!p.isAlive()) {
          throw new EmbeddedHBaseException(
              "Cannot start the cluster: "
                  + d.role()
                  + " exited during start-up (exit "
                  + p.exitValue()
                  + "); see "
                  + logFile(d.role())
                  + ":\n"
                  + tail(logFile(d.role()), dir.resolve("logs/" + d.role() + ".out")));
        }
      }
      if (System.nanoTime() > deadline) {
        List<String> waiting =
            daemons.stream().map(ClusterDaemon::role).filter(r -> !ready.contains(r)).toList();
        throw new EmbeddedHBaseException(
            "Cannot start the cluster: "
                + waiting
                + " not ready within "
                + timeout.toSeconds()
                + " s (see their logs in "
                + dir.resolve("logs")
                + ")");
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new EmbeddedHBaseException("Interrupted while starting the cluster");
      }
    }
  }

  private Process launch(ClusterDaemon d) throws IOException {
    Files.deleteIfExists(logFile(d.role()));
    List<String> cmd = new ArrayList<>(javaCommand(d.role(), d.heap()));
    cmd.add(d.mainClass());
    d.args().forEach(a -> cmd.add(a.replace("@DIR@", dir.toString())));
    return Daemons.launch(
        cmd,
        dir.resolve("logs/" + d.role() + ".out"),
        pidFile(d.role()),
        // the NodeManager starts containers with $JAVA_HOME/bin/java
        Map.of(
            "JAVA_HOME",
            System.getProperty("java.home"),
            "HADOOP_CONF_DIR",
            hadoopConfDir().toString()));
  }

  private List<String> javaCommand(String role, String heap) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add(heap);
    // small daemons on a shared 2-core machine: one GC thread, and no C2 compiler threads competing
    // at start-up
    cmd.add("-XX:+UseSerialGC");
    if (!role.startsWith("regionserver")) {
      cmd.add("-XX:TieredStopAtLevel=1");
    }
    cmd.addAll(ServerJvmFlags.FLAGS);
    cmd.add("-Drekey.cluster.role=" + role);
    cmd.add("-Drekey.cluster.dir=" + dir);
    cmd.add("-Drekey.cluster.log.file=" + logFile(role));
    cmd.add("-Dlog4j2.configurationFile=" + dir.resolve("conf/log4j2.properties"));
    cmd.add("-Dzookeeper.admin.enableServer=false");
    cmd.add("-Dhadoop.log.dir=" + dir.resolve("logs"));
    cmd.add("-Dyarn.log.dir=" + dir.resolve("logs"));
    cmd.add("-cp");
    cmd.add(
        String.join(
            File.pathSeparator,
            hadoopConfDir().toString(),
            dir.resolve("conf/hbase").toString(),
            dir.resolve("conf/web").toString(),
            EmbeddedHBase.serverClasspath()));
    return cmd;
  }

  private Path pidFile(String role) {
    return dir.resolve("pids").resolve(role + ".pid");
  }

  /**
   * The live process of a role of this cluster (a recycled pid of another program does not count).
   */
  public Optional<ProcessHandle> process(String role) {
    return Daemons.live(
        pidFile(role),
        cmd -> cmd.contains("-Drekey.cluster.role=" + role + " ") && cmd.contains(dir.toString()));
  }

  /**
   * A process's full command line (from /proc on Linux): how the cluster tells its own JVMs from
   * others.
   */
  public static String commandLine(ProcessHandle p) {
    return Daemons.commandLine(p);
  }

  private static String tail(Path... files) {
    List<String> lines = new ArrayList<>();
    for (Path f : files) {
      try {
        if (Files.exists(f)) {
          List<String> all = Files.readAllLines(f, StandardCharsets.ISO_8859_1);
          lines.addAll(all.subList(Math.max(0, all.size() - 12), all.size()));
        }
      } catch (IOException e) {
        // best effort: the message names the log
      }
    }
    return lines.isEmpty() ? "(no log)" : String.join("\n", lines);
  }

  private Map<String, String> sparkDefaults() {
    Map<String, String> m = new LinkedHashMap<>();
    // executors and application masters on YARN use the jars already on this machine instead of an
    // upload per job
    m.put("spark.yarn.jars", "local:" + dir.resolve("spark/spark-home/jars") + "/*");
    m.put("spark.yarn.am.memory", "512m");
    m.put("spark.executor.memory", "1g");
    m.put("spark.driver.memory", "1g");
    m.put("spark.executor.instances", "2");
    m.put("spark.executor.cores", "1");
    m.put("spark.sql.shuffle.partitions", "8");
    m.put("spark.ui.enabled", "false");
    return m;
  }

  /** One process of the cluster as {@code status} lists it. */
  public record ProcessStatus(String role, Optional<Long> pid, Integer port, Path log) {}
}

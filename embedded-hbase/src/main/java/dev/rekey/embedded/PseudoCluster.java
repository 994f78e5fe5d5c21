package dev.rekey.embedded;

import dev.rekey.home.RekeyHome;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
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
public final class PseudoCluster implements ClusterStack {
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

  /** Marks HDFS data formatted on a kerberized stack (its files owned by the realm's users). */
  static final String KERBERIZED_DATA = "data/kerberized";

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

  @Override
  public Path dir() {
    return dir;
  }

  @Override
  public Optional<String> sparkMasterUrl() {
    return spark().masterUrl();
  }

  @Override
  public Optional<Path> driverStdout(String driverId) {
    Path p = dir.resolve("spark/work").resolve(driverId).resolve("stdout");
    return Files.exists(p) ? Optional.of(p) : Optional.empty();
  }

  @Override
  public String describe() {
    return "the pseudo-distributed cluster";
  }

  @Override
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
        sparkDefaults(dir.resolve("spark/spark-home")));
  }

  /**
   * The spark-submit script of this cluster's Spark (Spark's own launcher over the cluster's jars).
   */
  @Override
  public Path sparkSubmit() {
    return spark().sparkSubmit();
  }

  /** Starts the cluster's daemons and one-off tools from its jars and configs. */
  private ClusterLauncher launcher() {
    return new ClusterLauncher(this, out);
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

  /** hdfs://127.0.0.1:PORT of the running NameNode (hdfs://localhost:PORT when kerberized). */
  @Override
  public Optional<String> defaultFs() {
    Integer nn = ports().get("namenode");
    String host = kerberos().isPresent() ? ClusterSites.KERBEROS_HOST : ClusterSites.HOST;
    return nn == null ? Optional.empty() : Optional.of("hdfs://" + host + ":" + nn);
  }

  /**
   * The realm of a stack started with {@code --kerberos}: its krb5.conf, the job user's and the
   * admin's principals and keytabs.
   */
  public Optional<KerberosRealm.Kerberized> kerberos() {
    return KerberosRealm.of(dir);
  }

  private Optional<KerberosRealm> realm() {
    return kerberos().map(k -> KerberosRealm.singleHost(dir));
  }

  /**
   * Each process of the cluster with its pid (if alive), port and log; Spark's master and worker
   * included.
   */
  public List<ProcessStatus> status() {
    return processes();
  }

  @Override
  public List<ProcessStatus> processes() {
    Map<String, Integer> ports = ports();
    List<ProcessStatus> list = new ArrayList<>();
    for (ClusterDaemon d : ClusterDaemon.all(ports, realm().orElse(null))) {
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

  @Override
  public Optional<Endpoint> endpoint(String role) {
    return processes().stream()
        .filter(p -> p.role().equals(role) && p.port() != null)
        .findFirst()
        .map(p -> new Endpoint(ClusterSites.HOST, p.port()));
  }

  @Override
  public boolean running() {
    return status().stream().allMatch(s -> s.pid().isPresent());
  }

  /** Starts every process that is not running and waits until all are ready. */
  public void start(List<Path> sparkJars, Duration timeout) {
    start(sparkJars, timeout, false);
  }

  /**
   * As {@link #start(List, Duration)}; with {@code kerberos}, the kerberized stack: a KDC first,
   * then every daemon authenticating with its own principal (see {@link KerberizedSites}).
   */
  public void start(List<Path> sparkJars, Duration timeout, boolean kerberos) {
    try {
      Daemons.locked(dir, () -> startLocked(sparkJars, timeout, kerberos));
    } catch (IOException e) {
      throw new EmbeddedHBaseException(
          String.format(
              "Cannot start the cluster in %s: %s (check that the directory is"
                  + " writable, or remove it to start from scratch)",
              dir, e));
    }
  }

  private Void startLocked(List<Path> sparkJars, Duration timeout, boolean kerberos)
      throws IOException {
    boolean formatted = Files.exists(dir.resolve("data/namenode/current/VERSION"));
    boolean kerberizedData = Files.exists(dir.resolve(KERBERIZED_DATA));
    if (formatted && kerberizedData != kerberos) {
      throw new EmbeddedHBaseException(
          String.format(
              "Cannot start the cluster in %s %s: its HDFS was made %s, and its files belong to"
                  + " %s. Start it %s as before, or give another --dir (or remove %s)",
              dir,
              kerberos ? "with --kerberos" : "without --kerberos",
              kerberizedData ? "kerberized" : "without Kerberos",
              kerberizedData ? "the realm's users" : "the local user",
              kerberizedData ? "with --kerberos" : "without --kerberos",
              dir));
    }
    if (running()) {
      out.accept("The cluster is already running (" + dir + ")");
      return null;
    }
    // a half-running cluster (one process died) restarts whole: its ports and configs belong
    // together
    stopAll(Duration.ofSeconds(30));
    long t0 = System.nanoTime();
    Map<String, Integer> ports = new ClusterFiles(dir).choosePorts();
    KerberosRealm realm = kerberos ? KerberosRealm.singleHost(dir) : null;
    new ClusterFiles(dir).write(ports, realm);
    if (!kerberos) {
      launcher().formatIfNew();
    }
    // Spark does not depend on the rest: it starts alongside
    CompletableFuture<String> spark =
        CompletableFuture.supplyAsync(() -> spark().start(sparkJars, 2, "2g", timeout));
    try {
      List<ClusterDaemon> daemons = ClusterDaemon.all(ports, realm);
      if (kerberos) {
        startKerberized(daemons, realm, timeout);
      } else {
        launcher().launchInOrder(daemons, timeout);
      }
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
   * The kerberized order: the KDC (it writes every keytab), the NameNode's format as its principal,
   * HDFS, ZooKeeper and YARN; then HDFS's directories by its superuser; then HBase.
   */
  private void startKerberized(List<ClusterDaemon> daemons, KerberosRealm realm, Duration timeout)
      throws IOException {
    List<ClusterDaemon> kdc = daemons.stream().filter(d -> d.role().equals("kdc")).toList();
    List<ClusterDaemon> hbase =
        daemons.stream()
            .filter(d -> d.role().equals("hbase-master") || d.role().startsWith("regionserver"))
            .toList();
    List<ClusterDaemon> rest =
        daemons.stream().filter(d -> !kdc.contains(d) && !hbase.contains(d)).toList();
    launcher().launchInOrder(kdc, timeout);
    launcher().formatIfNew();
    java.util.Set<String> ready = new java.util.HashSet<>(Set.of("kdc"));
    launcher().launchInOrder(rest, ready, timeout);
    launcher().secureInit(realm);
    rest.forEach(d -> ready.add(d.role()));
    launcher().launchInOrder(hbase, ready, timeout);
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
          String.format("Cannot stop the cluster in %s: %s", dir, e.getMessage()), e);
    }
  }

  /** Kills one process at once (SIGKILL), as a crash would: for fault tests and demonstrations. */
  @Override
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
  @Override
  public void restart(String role, Duration timeout) {
    if (process(role).isPresent()) {
      return;
    }
    ClusterDaemon d =
        ClusterDaemon.all(ports(), realm().orElse(null)).stream()
            .filter(x -> x.role().equals(role))
            .findFirst()
            .orElseThrow(
                () ->
                    new EmbeddedHBaseException(
                        String.format(
                            "Cannot restart %s: no such process (one of %s)", role, ROLES)));
    try {
      // the daemons it needs run: only they would be waited for (StartOrder)
      launcher().launchInOrder(List.of(d), timeout);
    } catch (IOException e) {
      throw new EmbeddedHBaseException(
          String.format(
              "Cannot restart %s: %s (see `rekey cluster status` and its log)",
              role, e.getMessage()));
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
      List<String> cmd = launcher().javaCommand("hbase-stop", "-Xmx256m");
      cmd.add(EmbeddedHBase.MAIN_CLASS);
      Optional<KerberosRealm> realm = realm();
      if (realm.isPresent()) {
        // only HBase's own principal (or a superuser) may shut it down
        cmd.addAll(
            List.of(
                "-D",
                "hbase.client.keytab.file=" + realm.get().serviceKeytab("hbase"),
                "-D",
                "hbase.client.keytab.principal=hbase/"
                    + ClusterSites.KERBEROS_HOST
                    + "@"
                    + realm.get().realm()));
      }
      cmd.addAll(List.of("stop", "--shutDownCluster"));
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
            "namenode",
            "kdc"),
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

  Path pidFile(String role) {
    return dir.resolve("pids").resolve(role + ".pid");
  }

  /**
   * The live process of a role of this cluster (a recycled pid of another program does not count).
   */
  @Override
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

  /** The spark-defaults.conf of a cluster's Spark home (here, and on the several-host stack). */
  static Map<String, String> sparkDefaults(Path sparkHome) {
    Map<String, String> m = new LinkedHashMap<>();
    // executors and application masters on YARN use the jars already on this machine instead of an
    // upload per job
    m.put("spark.yarn.jars", "local:" + sparkHome.resolve("jars") + "/*");
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

package dev.rekey.embedded;

import dev.rekey.embedded.HostPlan.Host;
import dev.rekey.embedded.PseudoCluster.ProcessStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The several-host stack ({@code rekey cluster start --hosts N}): the pseudo-distributed cluster's
 * processes spread over hosts that are network namespaces of this machine ({@link HostPlan}, {@link
 * HostNetwork}, {@link HostShell}): a master (NameNode, ZooKeeper, HBase master, ResourceManager,
 * Spark master), N workers (DataNode, RegionServer, NodeManager, Spark worker each) and a gateway
 * that runs no daemon, where users and tests run their commands ({@link #run}).
 *
 * <p>It shares its directory with the single-host cluster; {@code hosts.properties} there says the
 * several-host stack owns it (written before anything starts, removed by stop), so {@code status},
 * {@code stop} and {@code run} know which stack they talk to.
 */
public final class HostsCluster implements ClusterStack {
  private final Path dir;
  private final Consumer<String> out;

  public HostsCluster(Path dir, Consumer<String> out) {
    this.dir = dir.toAbsolutePath().normalize();
    this.out = out;
  }

  /** Whether {@code dir} holds a several-host stack (running, or started and not stopped). */
  public static boolean in(Path dir) {
    return Files.exists(dir.resolve("hosts.properties"));
  }

  /** Whether this machine lets us make the hosts (root, and network namespaces work). */
  public static boolean permitted() {
    return HostNetwork.permitted();
  }

  HostPlan plan() {
    try {
      String n = Files.readString(dir.resolve("hosts.properties")).replaceAll("(?s).*workers=", "");
      return HostPlan.of(dir, Integer.parseInt(n.trim()));
    } catch (IOException | NumberFormatException e) {
      throw new EmbeddedHBaseException(
          "Cannot read the hosts of the stack in " + dir + ": " + e.getMessage());
    }
  }

  @Override
  public Path dir() {
    return dir;
  }

  @Override
  public Optional<String> sparkMasterUrl() {
    return Optional.of("spark://" + HostPlan.MASTER + ":" + HostSites.SPARK_MASTER);
  }

  @Override
  public Optional<String> defaultFs() {
    return Optional.of("hdfs://" + HostPlan.MASTER + ":" + HostSites.NAMENODE);
  }

  @Override
  public Path sparkSubmit() {
    return plan().sparkHome().resolve("bin/spark-submit");
  }

  /** On the worker whose Spark worker ran the driver: its work dir there. */
  @Override
  public Optional<Path> driverStdout(String driverId) {
    for (HostPlan.Host w : plan().workers()) {
      Path p = plan().logs(w).resolve("spark-work").resolve(driverId).resolve("stdout");
      if (Files.exists(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  @Override
  public String describe() {
    return "the several-host stack";
  }

  /** The gateway's hbase-site.xml: pass it to jobs with --hbase-site. */
  @Override
  public Path clientSite() {
    return plan().hbaseConf(plan().get(HostPlan.GATEWAY).orElseThrow()).resolve("hbase-site.xml");
  }

  /** Starts the hosts and every daemon on them, and waits until all are ready. */
  public void start(int workers, List<Path> sparkJars, Duration timeout) {
    if (workers < 1) {
      throw new IllegalArgumentException("--hosts needs at least 1 worker host");
    }
    try {
      Daemons.locked(dir, () -> startLocked(workers, sparkJars, timeout));
    } catch (IOException e) {
      throw new EmbeddedHBaseException(String.format("Cannot start the hosts in %s: %s", dir, e));
    }
  }

  private Void startLocked(int workers, List<Path> sparkJars, Duration timeout) throws IOException {
    if (in(dir) && plan().workers().size() == workers && running()) {
      out.accept("The several-host stack is already running (" + dir + ")");
      return null;
    }
    if (!in(dir)
        && new PseudoCluster(dir, out).status().stream().anyMatch(s -> s.pid().isPresent())) {
      throw new EmbeddedHBaseException(
          "The single-host cluster in "
              + dir
              + " is running: stop it first (`rekey cluster stop`)");
    }
    if (in(dir)) {
      stopAll(Duration.ofSeconds(30)); // a half-running stack starts again whole
    }
    long t0 = System.nanoTime();
    HostPlan plan = HostPlan.of(dir, workers);
    Files.writeString(dir.resolve("hosts.properties"), "workers=" + workers + "\n");
    try {
      new HostNetwork(plan, out).up();
      new HostFiles(plan).write(PseudoCluster.sparkDefaults(plan.sparkHome()), sparkJars);
      HostLauncher launcher = new HostLauncher(plan, out);
      launcher.formatIfNew();
      launcher.launchInOrder(HostDaemon.all(plan), timeout);
    } catch (IOException | RuntimeException e) {
      stopAll(Duration.ofSeconds(30));
      throw e;
    }
    out.accept(
        String.format(
            "Several-host stack is up in %.1f s (%s)", (System.nanoTime() - t0) / 1e9, dir));
    return null;
  }

  /** Stops every daemon, then removes the namespaces, links and bridge; HDFS data is kept. */
  public void stop(Duration timeout) {
    try {
      Daemons.locked(dir, () -> stopAll(timeout));
    } catch (IOException e) {
      throw new EmbeddedHBaseException("Cannot stop the hosts in " + dir + ": " + e.getMessage());
    }
  }

  private Void stopAll(Duration timeout) throws IOException {
    if (!in(dir)) {
      return null;
    }
    HostPlan plan = plan();
    HostLauncher launcher = new HostLauncher(plan, out);
    List<HostDaemon> all = HostDaemon.all(plan);
    stopRoles(launcher, all, "spark-worker", timeout);
    stopRoles(launcher, all, "spark-master", timeout);
    stopRoles(launcher, all, "nodemanager", timeout);
    stopRoles(launcher, all, "resourcemanager", timeout);
    stopHBase(launcher, all, timeout);
    for (String prefix : List.of("regionserver", "hbase-master", "zookeeper", "datanode")) {
      stopRoles(launcher, all, prefix, timeout);
    }
    stopRoles(launcher, all, "namenode", timeout);
    new HostNetwork(plan, out).down();
    Files.deleteIfExists(dir.resolve("hosts.properties"));
    return null;
  }

  /** HBase stops through its master: regions closed and flushed, WALs closed on HDFS. */
  private void stopHBase(HostLauncher launcher, List<HostDaemon> all, Duration timeout)
      throws IOException {
    Optional<HostDaemon> master =
        all.stream().filter(d -> d.role().equals("hbase-master")).findFirst();
    if (master.isEmpty() || process(launcher, master.get()).isEmpty()) {
      return;
    }
    out.accept("Stopping HBase (through its master)");
    Process stopper =
        launcher.startOnMaster(
            "hbase-stop",
            List.of(EmbeddedHBase.MAIN_CLASS, "stop", "--shutDownCluster"),
            plan().logs(plan().master()).resolve("hbase-stop.out"));
    for (HostDaemon d : all) {
      if (d.role().startsWith("regionserver") || d.role().equals("hbase-master")) {
        process(launcher, d).ifPresent(p -> Daemons.waitFor(p, timeout));
      }
    }
    stopper.destroyForcibly();
  }

  private void stopRoles(
      HostLauncher launcher, List<HostDaemon> all, String prefix, Duration timeout)
      throws IOException {
    for (HostDaemon d : all) {
      if (d.role().startsWith(prefix)) {
        Optional<ProcessHandle> p = process(launcher, d);
        if (p.isPresent()) {
          Daemons.terminate(p.get(), timeout, d.role(), out);
          out.accept(
              "Stopped " + d.role() + " on " + d.host().name() + " (pid " + p.get().pid() + ")");
        }
        Files.deleteIfExists(launcher.pidFile(d));
      }
    }
  }

  private Optional<ProcessHandle> process(HostLauncher launcher, HostDaemon d) {
    return Daemons.live(
        launcher.pidFile(d),
        cmd ->
            cmd.contains("-Drekey.cluster.role=" + d.role() + " ") && cmd.contains(dir.toString()));
  }

  private Optional<HostDaemon> daemon(String role) {
    return HostDaemon.all(plan()).stream().filter(d -> d.role().equals(role)).findFirst();
  }

  @Override
  public Optional<ProcessHandle> process(String role) {
    return daemon(role).flatMap(d -> process(new HostLauncher(plan(), out), d));
  }

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
   * Starts one daemon again on its host, as start did (from the machine or from a host of the
   * stack: its enter script uncovers the private dirs the host it comes from hides).
   */
  @Override
  public void restart(String role, Duration timeout) {
    if (process(role).isPresent()) {
      return;
    }
    HostDaemon d =
        daemon(role)
            .orElseThrow(
                () ->
                    new EmbeddedHBaseException(
                        String.format(
                            "Cannot restart %s: no such daemon (one of %s)",
                            role, HostDaemon.all(plan()).stream().map(HostDaemon::role).toList())));
    try {
      new HostLauncher(plan(), out).launchInOrder(List.of(d), timeout);
    } catch (IOException e) {
      throw new EmbeddedHBaseException(
          String.format(
              "Cannot restart %s on %s: %s (see `rekey cluster status` and its log)",
              role, d.host().name(), e.getMessage()));
    }
  }

  @Override
  public List<ProcessStatus> processes() {
    return status().stream().flatMap(h -> h.processes().stream()).toList();
  }

  @Override
  public Optional<Endpoint> endpoint(String role) {
    return daemon(role).map(d -> new Endpoint(d.host().name(), d.port()));
  }

  @Override
  public boolean running() {
    return status().stream()
        .flatMap(h -> h.processes().stream())
        .allMatch(s -> s.pid().isPresent());
  }

  /** Each host with its address and its daemons (pid if alive, port, log). */
  public List<HostStatus> status() {
    HostPlan plan = plan();
    HostLauncher launcher = new HostLauncher(plan, out);
    List<HostDaemon> all = HostDaemon.all(plan);
    List<HostStatus> hosts = new ArrayList<>();
    for (Host h : plan.hosts()) {
      List<ProcessStatus> ps = new ArrayList<>();
      for (HostDaemon d : all) {
        if (d.host().equals(h)) {
          ps.add(
              new ProcessStatus(
                  d.role(),
                  process(launcher, d).map(ProcessHandle::pid),
                  d.port(),
                  launcher.log(d)));
        }
      }
      hosts.add(new HostStatus(h.name(), h.address(), h.netns(), ps));
    }
    return hosts;
  }

  /** What is left of this stack's network (namespaces, links, bridge): empty once stopped. */
  public List<String> networkLeftovers() {
    return new HostNetwork(HostPlan.of(dir, 8), out).leftovers();
  }

  /**
   * Runs {@code command} on host {@code host} with its output on this process's, in the host's
   * namespaces and with the environment a user there has; its exit code.
   */
  public int run(String host, List<String> command) throws IOException, InterruptedException {
    HostPlan plan = plan();
    Host h =
        plan.get(host)
            .orElseThrow(
                () ->
                    new EmbeddedHBaseException(
                        "No host "
                            + host
                            + " in the stack (one of "
                            + plan.hosts().stream().map(Host::name).toList()
                            + ")"));
    HostShell shell = new HostShell(plan);
    ProcessBuilder pb = new ProcessBuilder(shell.on(h, command)).inheritIO();
    Map<String, String> env = pb.environment();
    env.putAll(shell.userEnv(h));
    env.put(
        "PATH",
        plan.sparkHome().resolve("bin")
            + ":"
            + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    return pb.start().waitFor();
  }

  /** One host as {@code status} lists it. */
  public record HostStatus(
      String name, String address, String netns, List<ProcessStatus> processes) {}
}

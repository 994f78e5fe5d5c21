package dev.rekey.embedded;

import dev.rekey.home.RekeyHome;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A real standalone HBase server process (HMaster with its RegionServer and ZooKeeper in one JVM),
 * rooted in a run directory on the local filesystem and bound to 127.0.0.1 on free ports chosen at
 * start.
 *
 * <p>Run directory layout: {@code conf/} (server hbase-site.xml + log4j2), {@code
 * client/hbase-site.xml} (what clients load), {@code ports.properties}, {@code hbase.pid}, {@code
 * logs/hbase.log}, {@code data/}.
 *
 * <p>The server runs in its own session ({@code setsid}) so that it outlives the command that
 * started it and a Ctrl-C of that command does not reach it. Start and stop are serialised by a
 * file lock, so two starts never start two servers.
 *
 * <p>The lifecycle of one run directory: start and stop under its lock, the run lock a demo holds;
 * the run directory's files (configuration, ports, logs) are {@link EmbeddedFiles}, what the three
 * launchers do alike with a daemon is {@link Daemons}.
 */
public final class EmbeddedHBase {
  static final String READY_LINE = "Master has completed initialization";
  static final String MAIN_CLASS = "org.apache.hadoop.hbase.master.HMaster";

  private final Path runDir;
  private final EmbeddedFiles files;
  private final Consumer<String> out;
  private final List<String> serverArgs;
  private final HBaseVersion version;

  public EmbeddedHBase(Path runDir, Consumer<String> out) {
    this(runDir, out, List.of());
  }

  /**
   * @param serverArgs extra HMaster generic options, e.g. {@code -D key=value}, that override the
   *     site file
   */
  public EmbeddedHBase(Path runDir, Consumer<String> out, List<String> serverArgs) {
    this(runDir, out, serverArgs, HBaseVersion.built());
  }

  /**
   * @param version the HBase release a start runs ({@link HBaseVersion#built()} by default); a stop
   *     uses the one the running server was started with
   */
  public EmbeddedHBase(
      Path runDir, Consumer<String> out, List<String> serverArgs, HBaseVersion version) {
    this.runDir = runDir.toAbsolutePath().normalize();
    this.files = new EmbeddedFiles(this.runDir);
    this.out = out;
    this.serverArgs = List.copyOf(serverArgs);
    this.version = version;
  }

  /**
   * The embedded server whose client configuration {@code site} is ({@code <run
   * dir>/client/hbase-site.xml}), if it is one: a job on it can tell when its server is gone.
   */
  public static Optional<EmbeddedHBase> ofClientSite(Path site) {
    Path client = site.toAbsolutePath().normalize().getParent();
    if (client == null || client.getParent() == null) {
      return Optional.empty();
    }
    EmbeddedHBase hbase = new EmbeddedHBase(client.getParent(), s -> {});
    return hbase.clientSite().equals(site.toAbsolutePath().normalize())
        ? Optional.of(hbase)
        : Optional.empty();
  }

  /**
   * The run directory used when none is given: $REKEY_RUN_DIR, else {@code <rekey
   * home>/.rekey/hbase}.
   */
  public static Path defaultRunDir() {
    return RekeyHome.embeddedRunDir();
  }

  public Path runDir() {
    return runDir;
  }

  /** The client hbase-site.xml of this server; jobs load it as their HBase configuration. */
  public Path clientSite() {
    return files.clientSite();
  }

  public Path logFile() {
    return files.logFile();
  }

  /**
   * The server's process if it is running (the pid file names a live HMaster of this run
   * directory).
   */
  public Optional<ProcessHandle> runningProcess() {
    // A recycled pid must not be mistaken for our server: check its command line.
    return Daemons.live(
        files.pidFile(), cmd -> cmd.contains(MAIN_CLASS) && cmd.contains(runDir.toString()));
  }

  /**
   * Holds {@code <run dir>/<name>.lock} for a whole run against this server (the demo's) until the
   * returned lock is closed; the OS releases it when this process ends, kill -9 included.
   *
   * @param busy the error to throw when another process holds it, given its holder
   */
  public Closeable hold(String name, Function<Holder, RuntimeException> busy) {
    Path file = runDir.resolve(name + ".lock");
    try {
      FileChannel held = Daemons.tryHold(file);
      if (held == null) {
        throw busy.apply(holderOf(file));
      }
      return held;
    } catch (IOException e) {
      throw new EmbeddedHBaseException(
          String.format(
              "Cannot take the lock %s: %s (check that %s is writable)",
              file, e.getMessage(), runDir));
    }
  }

  /** The holder a lock file names, given a moment to write itself in when it has just taken it. */
  private static Holder holderOf(Path file) {
    Holder h = Holder.parse(Daemons.holder(file));
    for (int i = 0; i < 20 && h.pid() == 0; i++) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      h = Holder.parse(Daemons.holder(file));
    }
    return h;
  }

  /**
   * The process holding a run lock ({@link #hold}), as its file names it: pid 0 and no start time
   * when the file does not say (its holder has only just taken it).
   */
  public record Holder(long pid, String started) {
    static Holder parse(String text) {
      String[] parts = text.trim().split(" ", 2);
      try {
        return new Holder(Long.parseLong(parts[0]), parts.length > 1 ? parts[1] : "?");
      } catch (NumberFormatException e) {
        return new Holder(0, "?");
      }
    }
  }

  public Optional<Ports> ports() {
    return files.ports();
  }

  /**
   * The HBase release of the server this run directory last started (the built one when it does not
   * say).
   */
  public HBaseVersion runningVersion() {
    return files.version().map(HBaseVersion::new).orElseGet(HBaseVersion::built);
  }

  /**
   * Starts the server unless it is already running, and waits until the master has completed
   * initialisation.
   *
   * @return true if this call started it, false if it was already running
   * @throws EmbeddedHBaseException with the reason from the server log when it fails to start in
   *     time
   */
  public boolean start(Duration timeout) {
    return start(timeout, false);
  }

  /**
   * Like {@link #start}, but a server this call starts has no tables, snapshots or staged files
   * from earlier runs: for test runs, whose uniquely named tables would otherwise pile up run after
   * run towards the region limit.
   */
  public boolean startEmpty(Duration timeout) {
    return start(timeout, true);
  }

  private boolean start(Duration timeout, boolean empty) {
    try {
      return Daemons.locked(
          runDir,
          () -> {
            Optional<ProcessHandle> running = runningProcess();
            if (running.isPresent()) {
              out.accept(
                  String.format(
                      "HBase is already running (pid %d, run dir %s)",
                      running.get().pid(), runDir));
              return false;
            }
            if (empty) {
              Daemons.deleteTree(runDir.resolve("data"));
            }
            launch(timeout);
            return true;
          });
    } catch (IOException e) {
      throw new EmbeddedHBaseException(
          String.format(
              "Cannot start embedded HBase in %s: %s. Check that the run directory is writable,"
                  + " or remove it to start from scratch.",
              runDir, e));
    }
  }

  private void launch(Duration timeout) throws IOException {
    Ports ports = files.prepare();
    // resolved (another version's, on first use) before the clock of the start runs
    String classpath = version.serverClasspath(out);
    files.writeVersion(version.maven());

    // 2 GB: the whole test suite shares one server (hundreds of tables, replication peers, bulk
    // loads); with 1 GB it ran out of heap in CI once the suite grew
    List<String> cmd = new ArrayList<>(javaCommand("-Xmx2g", classpath));
    cmd.add(MAIN_CLASS);
    cmd.addAll(serverArgs);
    cmd.add("start");
    long t0 = System.nanoTime();
    out.accept(
        String.format(
            "Starting HBase %s (standalone, 127.0.0.1, ZooKeeper port %d) in %s",
            version, ports.zookeeper(), runDir));
    Process proc = Daemons.launch(cmd, files.outFile(), files.pidFile(), Map.of());

    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!proc.isAlive()) {
        Files.deleteIfExists(files.pidFile());
        throw new EmbeddedHBaseException(
            String.format(
                "HBase exited during start-up (exit code %d). %s\nFull log: %s and %s",
                proc.exitValue(), files.reasonFromLog(), logFile(), files.outFile()));
      }
      if (files.logContains(READY_LINE)) {
        out.accept(
            String.format(
                "HBase is up in %.1f s (pid %d). Client config: %s",
                (System.nanoTime() - t0) / 1e9, proc.pid(), clientSite()));
        return;
      }
      try {
        proc.waitFor(
            250, java.util.concurrent.TimeUnit.MILLISECONDS); // wakes early if the server dies
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new EmbeddedHBaseException("Interrupted while waiting for HBase to start");
      }
    }
    proc.destroyForcibly();
    Files.deleteIfExists(files.pidFile());
    throw new EmbeddedHBaseException(
        String.format(
            "HBase did not finish starting within %d s. %s\nFull log: %s",
            timeout.toSeconds(), files.reasonFromLog(), logFile()));
  }

  /**
   * Stops the server cleanly ({@code HMaster stop --shutDownCluster}), escalating to SIGTERM and
   * then SIGKILL if it does not exit in time. A stopped server is a no-op.
   *
   * @return true if a running server was stopped
   */
  public boolean stop(Duration timeout) {
    try {
      return Daemons.locked(
          runDir,
          () -> {
            Optional<ProcessHandle> running = runningProcess();
            if (running.isEmpty()) {
              out.accept("HBase is not running (run dir " + runDir + ")");
              Files.deleteIfExists(files.pidFile());
              return false;
            }
            ProcessHandle server = running.get();
            out.accept("Stopping HBase (pid " + server.pid() + ")");
            // the stop command of the release that runs
            List<String> cmd =
                new ArrayList<>(javaCommand("-Xmx256m", runningVersion().serverClasspath(out)));
            cmd.addAll(List.of(MAIN_CLASS, "stop", "--shutDownCluster"));
            Process stopper =
                new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(files.outFile().toFile()))
                    .start();
            if (!Daemons.waitFor(server, timeout)) {
              out.accept(
                  "HBase did not stop within " + timeout.toSeconds() + " s; sending SIGTERM");
              Daemons.terminate(server, Duration.ofSeconds(30), "HBase", out);
            }
            stopper.destroyForcibly();
            Files.deleteIfExists(files.pidFile());
            out.accept("HBase stopped");
            return true;
          });
    } catch (IOException e) {
      throw new UncheckedIOException(
          String.format("Cannot stop embedded HBase in %s: %s", runDir, e.getMessage()), e);
    }
  }

  private List<String> javaCommand(String heap, String classpath) {
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>();
    cmd.add(javaBin);
    cmd.add(heap);
    cmd.addAll(ServerJvmFlags.FLAGS);
    cmd.add("-Drekey.hbase.log.file=" + logFile());
    cmd.add("-Dlog4j2.configurationFile=" + runDir.resolve("conf/log4j2.properties"));
    cmd.add("-Drekey.hbase.rundir=" + runDir);
    cmd.add("-cp");
    cmd.add(runDir.resolve("conf") + java.io.File.pathSeparator + classpath);
    return cmd;
  }

  /**
   * A release's demo kit (rekey-VERSION-demo.tar.gz unpacked over the release): the server's jars
   * in {@code lib/demo}, listed by name in its {@code server.classpath}, written by
   * bin/rekey-release in place of the build's list of ~/.m2 paths.
   */
  static Path releaseServerClasspath() {
    return RekeyHome.resolve("lib/demo/server.classpath");
  }

  /** The build's classes dir of this module, or a release's jar of it (NioLocalFileSystem). */
  static String serverSelf() throws IOException {
    Path release = releaseServerClasspath();
    if (Files.isRegularFile(release)) {
      return ""; // the release's list holds this module's jar
    }
    return resource("server.self").trim();
  }

  static String serverClasspath() throws IOException {
    Path release = releaseServerClasspath();
    if (Files.isRegularFile(release)) {
      Path dir = release.getParent();
      List<String> jars = new ArrayList<>();
      for (String name : Files.readString(release).trim().split("[:\\s]+")) {
        if (!name.isEmpty()) {
          jars.add(dir.resolve(name).toString());
        }
      }
      return String.join(java.io.File.pathSeparator, jars);
    }
    if (isRelease()) {
      throw new EmbeddedHBaseException(
          "The embedded HBase server's jars are not in this release: unpack"
              + " rekey-<version>-demo.tar.gz over it (it adds lib/demo), or run against a"
              + " cluster with --hbase-site.");
    }
    String cp = resource("server.classpath").trim();
    if (cp.isEmpty()) {
      throw new EmbeddedHBaseException(
          "The embedded HBase classpath is empty: rebuild with `mvn -pl embedded-hbase -am "
              + "package` (bin/rekey does this on first use).");
    }
    return cp;
  }

  /** An unpacked release (bin/rekey-release): an install without the sources' pom.xml. */
  static boolean isRelease() {
    return Files.isRegularFile(RekeyHome.resolve("RELEASE"));
  }

  static String resource(String name) throws IOException {
    try (InputStream in = EmbeddedHBase.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new EmbeddedHBaseException(
            String.format(
                "Missing resource dev/rekey/embedded/%s in the rekey-embedded-hbase jar: rebuild it"
                    + " (mvn -pl embedded-hbase package).",
                name));
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Loopback ports of a running server. */
  public record Ports(int zookeeper, int master, int regionServer) {}
}

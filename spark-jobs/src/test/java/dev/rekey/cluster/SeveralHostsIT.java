package dev.rekey.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.Poll;
import dev.rekey.embedded.HostsCluster;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The several-host stack ({@code cluster start --hosts 2}): from the gateway, every service sees
 * both worker hosts by their names and addresses; a host's /tmp is its own; an HBase client on the
 * gateway creates, writes and reads a table; {@code demo --cluster} runs its story from the
 * gateway; a nightly report on YARN writes every row to HDFS and refuses a local output its
 * executors on the workers would lose rows to; a YARN cluster-mode backfill whose first application
 * master is killed mid-write finishes on the second attempt; {@code cluster stop} leaves no
 * namespace, link or bridge behind. Needs root (network namespaces); skipped otherwise.
 */
@Tag("cluster")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SeveralHostsIT {
  private static final Path DIR = SharedHBase.runRoot().resolve("hosts-cluster");
  private static final String SITE = "$HBASE_CONF_DIR/hbase-site.xml";
  private static final String JAR =
      SharedHBase.rekeyHome()
          .resolve("spark-jobs/target/rekey-spark-jobs-0.1.0-SNAPSHOT-spark.jar")
          .toString();

  /**
   * A job on YARN from the gateway, as docs/cluster.md's recipe: the jar shipped to the containers
   * as rekey.jar, on the executors' class path (HBase's metrics classes must come from Hadoop's
   * class loader there, README).
   */
  private static final String ON_YARN =
      " --master yarn --conf spark.executor.extraClassPath=rekey.jar"
          + " --conf spark.yarn.dist.files="
          + JAR
          + "#rekey.jar";

  /**
   * A job on YARN in cluster deploy mode: the application jar is shipped as __app__.jar (shipping
   * it again as rekey.jar is refused: one file twice in the distributed cache), and named on the
   * driver's and executors' class path for the same reason as rekey.jar in client mode.
   */
  private static final String CLUSTER_MODE_ON_YARN =
      " --master yarn --conf spark.submit.deployMode=cluster --conf spark.yarn.maxAppAttempts=2"
          + " --conf spark.driver.extraClassPath=__app__.jar"
          + " --conf spark.executor.extraClassPath=__app__.jar";

  private String startOutput;

  @BeforeAll
  void start() throws Exception {
    Assumptions.assumeTrue(HostsCluster.permitted(), "needs root and network namespaces");
    // every host mounts a /tmp of its own: a checkout there (its jar, scripts and test classes)
    // is not what the hosts see, and the stack refuses a directory there
    Assumptions.assumeFalse(
        DIR.toAbsolutePath().normalize().startsWith("/tmp"),
        "the several-host stack cannot run from a checkout under /tmp (each host has its own /tmp)");
    long t0 = System.nanoTime();
    startOutput =
        ClusterTier.rekey(
                "cluster", "start", "--hosts", "2", "--dir", DIR.toString(), "--timeout", "280")
            .stdout();
    System.out.printf("start: %.1f s%n", (System.nanoTime() - t0) / 1e9);
  }

  @AfterAll
  void stop() throws Exception {
    if (startOutput == null) {
      return;
    }
    ClusterTier.rekey("cluster", "stop", "--dir", DIR.toString());
    assertEquals(List.of(), new HostsCluster(DIR, System.out::println).networkLeftovers());
    String netns = RekeyProcess.run(new ProcessBuilder("ip", "netns", "list"), 30).stdout();
    assertTrue(!netns.contains("hosts-cluster"), netns);
  }

  @Test
  @Order(1)
  void twoWorkerHostsSeenFromTheGateway() throws Exception {
    assertTrue(startOutput.contains("client config: "), startOutput);
    String w1 = address(startOutput, "worker1");
    String w2 = address(startOutput, "worker2");

    // each host's /tmp is its own
    run("worker1", "sh", "-c", "echo worker1 > /tmp/rekey-hosts-it");
    assertEquals("worker1", run("worker1", "cat", "/tmp/rekey-hosts-it").stdout().trim());
    for (String other : List.of("worker2", "gateway", "master")) {
      assertEquals(
          "absent",
          run(other, "sh", "-c", "test -e /tmp/rekey-hosts-it && echo present || echo absent")
              .stdout()
              .trim(),
          "worker1's /tmp file seen on " + other);
    }
    assertEquals("worker2", run("worker2", "hostname").stdout().trim());
    assertEquals(w2, run("worker2", "hostname", "-i").stdout().trim());

    RekeyProcess.Result probe = run("gateway", probeCommand("hosts_it"));
    String out = probe.stdout();
    assertEquals("worker1=" + w1 + ",worker2=" + w2, line(out, "datanodes"));
    assertEquals("worker1,worker2", line(out, "regionservers"));
    assertEquals("worker1,worker2", line(out, "nodemanagers"));
    assertEquals("worker1,worker2", line(out, "sparkworkers"));
    assertEquals("from the gateway", line(out, "row1"));
  }

  /**
   * {@code demo --cluster} from the gateway: every job through the stack's spark-submit (backfill
   * in standalone cluster deploy mode, the driver on a worker), the nightly scans on YARN with
   * their reports on HDFS, and a plain client's comparison of the old table with each new one.
   */
  @Test
  @Order(2)
  void theClusterDemoRunsFromTheGateway() throws Exception {
    RekeyProcess.Result r =
        runFor(
            1500,
            "gateway",
            "bin/rekey",
            "demo",
            "--cluster",
            "--cluster-dir",
            DIR.toString(),
            "--rows",
            "20000",
            "--devices",
            "50");
    String out = r.stdout();
    assertEquals(0, r.exitCode(), r.all());
    assertTrue(out.matches("(?s).*driver driver-\\S+: FINISHED \\(staging hdfs://master:.*"), out);
    assertEquals(
        2, out.lines().filter(l -> l.contains("MATCH: all 24 buckets agree")).count(), out);
    assertTrue(out.contains("telemetry_v2 equals telemetry_v1: 20,000 rows"), out);
    assertTrue(out.contains("telemetry_by_device equals telemetry_v1: 20,000 rows"), out);
  }

  /**
   * The nightly report on YARN (driver on the gateway, executors on both workers) into {@code
   * hdfs://}: read back through HDFS, it holds every row the same report gives when run whole on
   * the gateway (a local master: driver and executors in one JVM, one disk).
   */
  @Test
  @Order(3)
  void aNightlyReportOnYarnWritesEveryRowToHdfs() throws Exception {
    String report = SharedHBase.rekeyHome().resolve("sql/device_window_counts.sql").toString();
    String scan =
        "bin/rekey scan --hbase-site "
            + SITE
            + " --table telemetry_v2 --layout telemetry-v2 --day 2026-11-29 --report "
            + report
            + " --format csv";
    run("gateway", "sh", "-c", scan + ON_YARN + " --out hdfs:///rekey-it/nightly");
    run("gateway", "sh", "-c", scan + " --master local[2] --out file:///tmp/nightly-whole");
    List<String> onHdfs =
        lines(run("gateway", probeCommand("cat", "hdfs:///rekey-it/nightly/device_window_counts")));
    List<String> whole =
        run("gateway", "sh", "-c", "cat /tmp/nightly-whole/device_window_counts/part-*")
            .stdout()
            .lines()
            .toList();
    assertTrue(whole.size() > 10, "the report has rows: " + whole);
    assertEquals(sortedRows(whole), sortedRows(onHdfs));
    // the driver's summary beside the parts, on HDFS
    run("gateway", probeCommand("cat", "hdfs:///rekey-it/nightly"));
  }

  /**
   * The same report into {@code file://} with executors on the two workers: refused before the read
   * (each executor would write its part to its own disk, and the commit on the gateway would see
   * none of them), exit 2, nothing written.
   */
  @Test
  @Order(4)
  void aLocalReportDirWithExecutorsOnOtherHostsIsRefusedBeforeTheRead() throws Exception {
    String report = SharedHBase.rekeyHome().resolve("sql/device_window_counts.sql").toString();
    RekeyProcess.Result r =
        runFor(
            600,
            "gateway",
            "sh",
            "-c",
            "bin/rekey scan --hbase-site "
                + SITE
                + " --table telemetry_v2 --layout telemetry-v2 --day 2026-11-29 --report "
                + report
                + ON_YARN
                + " --out file:///tmp/nightly-refused");
    assertEquals(2, r.exitCode(), r.all());
    assertTrue(r.all().contains("Refusing --out file:/tmp/nightly-refused"), r.all());
    assertTrue(r.all().matches("(?s).*executors on [^\\n]*worker.*"), r.all());
    assertTrue(!r.all().contains("read and decoded"), "nothing was read:\n" + r.all());
    assertEquals(
        "absent",
        run("gateway", "sh", "-c", "test -e /tmp/nightly-refused && echo present || echo absent")
            .stdout()
            .trim());
  }

  /**
   * A backfill on YARN in cluster deploy mode whose first application master is killed (kill -9)
   * while it writes HFiles: YARN's second attempt takes the lock over (an earlier attempt of the
   * same application), writes and loads once, and a plain client on the gateway finds the old and
   * the new table equal by natural key, every cell and version with its timestamp.
   */
  @Test
  @Order(5)
  void aYarnClusterModeBackfillWhoseFirstAttemptIsKilledCompletesOnTheSecond() throws Exception {
    Path layouts = SharedHBase.rekeyHome().resolve("conf/layouts");
    run("gateway", probeCommand("drop", "hosts_v2")); // HBase's data outlives a stop of the stack
    run(
        "gateway",
        "sh",
        "-c",
        "bin/rekey create-table --hbase-site "
            + SITE
            + " --table hosts_v2 --layout telemetry-v2 --splits salt --family d");
    Set<String> appsBefore = applications();
    ProcessBuilder pb =
        RekeyProcess.builder(
            "cluster",
            "run",
            "gateway",
            "--dir",
            DIR.toString(),
            "--",
            "sh",
            "-c",
            "bin/rekey backfill --hbase-site "
                + SITE
                + " --source-snapshot telemetry_v1_snap --source-layout "
                + layouts.resolve("telemetry-v1.yaml")
                + " --target-table hosts_v2 --target-layout "
                + layouts.resolve("telemetry-v2.yaml")
                + " --staging hdfs:///rekey-it/staging-v2"
                + CLUSTER_MODE_ON_YARN);
    Path log = Files.createTempFile("rekey-backfill", ".txt");
    Process backfill = pb.redirectErrorStream(true).redirectOutput(log.toFile()).start();
    // the driver's progress line of the write stage (it runs in the first attempt's AM container)
    Path firstAm = waitForLine(appsBefore, "_01_000001", "write HFiles for", 600, backfill, log);
    String container = firstAm.getParent().getFileName().toString();
    System.out.println("killing the first application master, " + container);
    RekeyProcess.run(new ProcessBuilder("pkill", "-9", "-f", container), 30);
    assertTrue(backfill.waitFor(1200, TimeUnit.SECONDS), "the backfill did not finish");
    String output = Files.readString(log);
    System.out.println(output);
    assertEquals(0, backfill.exitValue(), output);
    // YARN starts the second attempt on any worker: its AM container's logs, wherever they are
    String app = firstAm.getParent().getParent().getFileName().toString();
    StringBuilder second = new StringBuilder();
    for (Path containers : containerDirs()) {
      Path dir = containers.resolve(app);
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> cs = Files.list(dir)) {
        for (Path c : cs.filter(c -> c.getFileName().toString().endsWith("_02_000001")).toList()) {
          second.append(Files.readString(c.resolve("stdout")));
          second.append(Files.readString(c.resolve("stderr")));
        }
      }
    }
    assertTrue(second.toString().contains("Taking over"), "no second attempt of " + app);
    assertTrue(second.toString().contains("attempt 1 of this application"), second.toString());
    String probe =
        run(
                "gateway",
                probeCommand(
                    "compare",
                    "telemetry_v1",
                    layouts.resolve("telemetry-v1.yaml").toString(),
                    "hosts_v2",
                    layouts.resolve("telemetry-v2.yaml").toString()))
            .stdout();
    assertTrue(line(probe, "equal").startsWith("true 20000 rows"), probe);
    assertEquals("1", line(probe, "load records"), "loaded once:\n" + probe);
  }

  /** The YARN applications whose container logs are on the workers now. */
  private static Set<String> applications() throws Exception {
    Set<String> apps = new TreeSet<>();
    for (Path containers : containerDirs()) {
      try (Stream<Path> s = Files.list(containers)) {
        s.forEach(p -> apps.add(p.getFileName().toString()));
      }
    }
    return apps;
  }

  private static List<Path> containerDirs() {
    List<Path> dirs = new ArrayList<>();
    for (String w : List.of("worker1", "worker2")) {
      Path d = DIR.resolve("hosts").resolve(w).resolve("logs/containers");
      if (Files.isDirectory(d)) {
        dirs.add(d);
      }
    }
    return dirs;
  }

  /**
   * The stderr of a container whose id ends with {@code containerSuffix}, of an application not in
   * {@code before}, once it holds {@code text}.
   */
  private static Path waitForLine(
      Set<String> before,
      String containerSuffix,
      String text,
      long seconds,
      Process submitter,
      Path output)
      throws Exception {
    Path[] found = new Path[1];
    Poll.until(
        () ->
            (found[0] = stderrWith(before, containerSuffix, text)) != null || !submitter.isAlive(),
        Duration.ofSeconds(seconds),
        Duration.ofMillis(500),
        () ->
            new IllegalStateException(
                "no container *" + containerSuffix + " logged '" + text + "'"));
    if (found[0] == null) {
      submitter.waitFor(30, TimeUnit.SECONDS);
      throw new AssertionError(
          "no container *"
              + containerSuffix
              + " logged '"
              + text
              + "' before the submission ended:\n"
              + Files.readString(output));
    }
    return found[0];
  }

  /** The stderr of such a container that holds {@code text} now, or null. */
  private static Path stderrWith(Set<String> before, String containerSuffix, String text)
      throws java.io.IOException {
    for (Path containers : containerDirs()) {
      try (Stream<Path> apps = Files.list(containers)) {
        for (Path app : apps.filter(a -> !before.contains(a.getFileName().toString())).toList()) {
          try (Stream<Path> cs = Files.list(app)) {
            for (Path c :
                cs.filter(c -> c.getFileName().toString().endsWith(containerSuffix)).toList()) {
              Path stderr = c.resolve("stderr");
              if (Files.exists(stderr) && Files.readString(stderr).contains(text)) {
                return stderr;
              }
            }
          }
        }
      }
    }
    return null;
  }

  private static List<String> lines(RekeyProcess.Result probe) {
    return probe
        .stdout()
        .lines()
        .filter(l -> l.startsWith("probe line: "))
        .map(l -> l.substring(12))
        .toList();
  }

  /** The rows of a CSV report (header and blank lines aside), sorted. */
  private static List<String> sortedRows(List<String> csv) {
    return csv.stream().filter(l -> !l.isBlank()).distinct().sorted().toList();
  }

  /** {@code bin/rekey cluster run HOST -- COMMAND}, exit 0 asserted. */
  private static RekeyProcess.Result run(String host, String... command) throws Exception {
    RekeyProcess.Result r = runFor(600, host, command);
    assertEquals(0, r.exitCode(), r.all());
    return r;
  }

  /** {@code bin/rekey cluster run HOST -- COMMAND} within {@code seconds}, its output printed. */
  private static RekeyProcess.Result runFor(long seconds, String host, String... command)
      throws Exception {
    List<String> args =
        new ArrayList<>(List.of("cluster", "run", host, "--dir", DIR.toString(), "--"));
    args.addAll(List.of(command));
    RekeyProcess.Result r = RekeyProcess.run(seconds, args.toArray(new String[0]));
    System.out.println(r.all());
    return r;
  }

  /**
   * A JVM on the test's class path running {@link GatewayProbe} with {@code args} (a table name: it
   * creates it).
   */
  private static String[] probeCommand(String... args) {
    List<String> c =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/java.lang=ALL-UNNAMED",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
                "-Dio.netty.tryReflectionSetAccessible=true",
                "-Dlog4j2.level=WARN",
                "-cp",
                System.getProperty("java.class.path"),
                GatewayProbe.class.getName()));
    c.addAll(List.of(args));
    return c.toArray(new String[0]);
  }

  /** The address {@code cluster status} lists for {@code host}. */
  private static String address(String status, String host) {
    Matcher m = Pattern.compile("(?m)^" + host + "\\s+(\\S+)").matcher(status);
    assertTrue(m.find(), "no " + host + " in\n" + status);
    return m.group(1);
  }

  private static String line(String out, String key) {
    Matcher m = Pattern.compile("(?m)^probe " + key + ": (.*)$").matcher(out);
    assertTrue(m.find(), "no probe " + key + " in\n" + out);
    return m.group(1).trim();
  }
}

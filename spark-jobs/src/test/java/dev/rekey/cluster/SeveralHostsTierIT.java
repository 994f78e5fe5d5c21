package dev.rekey.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.embedded.HostsCluster;
import dev.rekey.embedded.PseudoCluster;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The cluster tier on the several-host stack: {@code cluster start --hosts 2} once in the tier's
 * directory ({@link ClusterTier#DIR}), then each of the tier's classes that drive a running cluster
 * run whole on the gateway ({@code cluster run gateway -- java ... TierMain CLASS}, the test class
 * path, {@code -Drekey.it.stack=hosts}): their clients (HBase, HDFS, spark-submit, {@code
 * bin/rekey}) on the edge node, the daemons they kill and restart on the workers. The same classes
 * run on the single-host cluster when the tier runs in the machine's namespace. Needs root and
 * network namespaces; skipped otherwise.
 */
@Tag("cluster")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SeveralHostsTierIT {
  private static final Path DIR = ClusterTier.DIR;
  private boolean started;

  @BeforeAll
  void start() throws Exception {
    Assumptions.assumeTrue(HostsCluster.permitted(), "needs root and network namespaces");
    Assumptions.assumeFalse(
        DIR.toAbsolutePath().normalize().startsWith("/tmp"),
        "the several-host stack cannot run from a checkout under /tmp (each host has its own /tmp)");
    if (HostsCluster.in(DIR)) {
      ClusterTier.rekey("cluster", "stop"); // an earlier, interrupted run's
    }
    assertTrue(
        new PseudoCluster(DIR, s -> {}).status().stream().noneMatch(s -> s.pid().isPresent()),
        "the single-host cluster in " + DIR + " runs: stop it first (bin/rekey cluster stop)");
    // each run starts from an empty stack: no tables, HDFS files or reports of an earlier run
    if (Files.exists(DIR)) {
      try (Stream<Path> walk = Files.walk(DIR)) {
        walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    long t0 = System.nanoTime();
    started = true;
    ClusterTier.rekey("cluster", "start", "--hosts", "2", "--timeout", "280");
    System.out.printf("tier stack start: %.1f s%n", (System.nanoTime() - t0) / 1e9);
  }

  @AfterAll
  void stop() throws Exception {
    if (!started) {
      return;
    }
    ClusterTier.rekey("cluster", "stop");
    assertEquals(List.of(), new HostsCluster(DIR, System.out::println).networkLeftovers());
  }

  /** One class of the tier, run whole on the gateway: every test in it passed. */
  @ParameterizedTest
  @ValueSource(strings = {"PseudoClusterIT", "ClientFaultsIT", "ReplicationFailoverIT"})
  void runsOnTheGateway(String name) throws Exception {
    String cls = "dev.rekey.cluster." + name;
    List<String> cmd = new ArrayList<>(List.of("cluster", "run", "gateway", "--"));
    cmd.addAll(javaOnTheTestClassPath());
    cmd.addAll(
        List.of(
            "-D" + ClusterTier.STACK_PROPERTY + "=hosts",
            "-Drekey.home=" + SharedHBase.rekeyHome(),
            TierMain.class.getName(),
            cls));
    Path log = SharedHBase.runRoot().resolve("hosts-tier-" + name + ".log");
    Files.createDirectories(log.getParent());
    long t0 = System.nanoTime();
    Process p =
        RekeyProcess.builder(cmd.toArray(new String[0]))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    boolean ended = p.waitFor(60, TimeUnit.MINUTES);
    if (!ended) {
      p.destroyForcibly();
    }
    String out = Files.readString(log);
    System.out.println(out);
    System.out.printf("%s on the gateway: %.1f s%n", name, (System.nanoTime() - t0) / 1e9);
    assertTrue(ended, name + " did not end within 60 min; see " + log);
    assertTrue(
        out.lines().anyMatch(l -> l.startsWith("tier: ") && l.contains(" 0 failed")),
        name + " on the gateway: see " + log);
    assertEquals(0, p.exitValue(), name + " on the gateway failed; see " + log);
  }

  /**
   * {@code java} with this JVM's test class path and module flags (what the tier's HBase and Spark
   * clients need, from the build's argLine).
   */
  private static List<String> javaOnTheTestClassPath() {
    List<String> java =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1536m"));
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens")
          || arg.startsWith("--add-exports")
          || arg.startsWith("-Djdk.reflect")
          || arg.startsWith("-Dio.netty")) {
        java.add(arg);
      }
    }
    java.addAll(List.of("-cp", System.getProperty("java.class.path")));
    return java;
  }
}

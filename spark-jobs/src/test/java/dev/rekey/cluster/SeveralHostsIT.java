package dev.rekey.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.embedded.HostsCluster;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The several-host stack ({@code cluster start --hosts 2}): from the gateway, every service sees
 * both worker hosts by their names and addresses; a host's /tmp is its own; an HBase client on the
 * gateway creates, writes and reads a table; {@code cluster stop} leaves no namespace, link or
 * bridge behind. Needs root (network namespaces); skipped otherwise.
 */
@Tag("cluster")
class SeveralHostsIT {
  private static final Path DIR = SharedHBase.runRoot().resolve("hosts-cluster");

  @Test
  void twoWorkerHostsSeenFromTheGateway() throws Exception {
    Assumptions.assumeTrue(HostsCluster.permitted(), "needs root and network namespaces");
    // every host mounts a /tmp of its own: a checkout there (its jar, scripts and test classes)
    // is not what the hosts see, and the stack refuses a directory there
    Assumptions.assumeFalse(
        DIR.toAbsolutePath().normalize().startsWith("/tmp"),
        "the several-host stack cannot run from a checkout under /tmp (each host has its own /tmp)");
    String dir = DIR.toString();
    try {
      long t0 = System.nanoTime();
      RekeyProcess.Result start =
          ClusterTier.rekey("cluster", "start", "--hosts", "2", "--dir", dir, "--timeout", "280");
      System.out.printf("start: %.1f s%n", (System.nanoTime() - t0) / 1e9);
      assertTrue(start.stdout().contains("client config: "), start.all());
      String w1 = address(start.stdout(), "worker1");
      String w2 = address(start.stdout(), "worker2");

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
      scanOnYarnFromTheGateway();
    } finally {
      ClusterTier.rekey("cluster", "stop", "--dir", dir);
      assertEquals(List.of(), new HostsCluster(DIR, System.out::println).networkLeftovers());
      String netns = RekeyProcess.run(new ProcessBuilder("ip", "netns", "list"), 30).stdout();
      assertTrue(!netns.contains("hosts-cluster"), netns);
    }
  }

  /**
   * {@code bin/rekey scan} on YARN in client deploy mode from the gateway: the driver there, the
   * application master and executors on the workers. The CLI's in-JVM SparkSubmit reads the YARN
   * and HDFS configs from its class path only, hence REKEY_CLASSPATH=$HADOOP_CONF_DIR.
   */
  private static void scanOnYarnFromTheGateway() throws Exception {
    String site = "$HBASE_CONF_DIR/hbase-site.xml";
    String jar =
        SharedHBase.rekeyHome()
            .resolve("spark-jobs/target/rekey-spark-jobs-0.1.0-SNAPSHOT-spark.jar")
            .toString();
    run(
        "gateway",
        "sh",
        "-c",
        "bin/rekey create-table --hbase-site "
            + site
            + " --table hosts_scan --layout telemetry-v2"
            + " --splits salt --family d --if-not-exists"
            + " && REKEY_CLASSPATH=$HADOOP_CONF_DIR bin/rekey scan --hbase-site "
            + site
            + " --table hosts_scan --layout telemetry-v2 --day 2026-11-29 --master yarn"
            + " --conf spark.submit.deployMode=client --conf spark.executor.extraClassPath=rekey.jar"
            + " --conf spark.yarn.dist.files="
            + jar
            + "#rekey.jar --out /tmp/hosts-scan");
    // the driver's summary is on the gateway's disk, not on a worker's
    run("gateway", "test", "-f", "/tmp/hosts-scan/summary.json");
    assertEquals(
        "absent",
        run("worker1", "sh", "-c", "test -e /tmp/hosts-scan && echo present || echo absent")
            .stdout()
            .trim());
  }

  /** {@code bin/rekey cluster run HOST -- COMMAND}, exit 0 asserted. */
  private static RekeyProcess.Result run(String host, String... command) throws Exception {
    List<String> args =
        new ArrayList<>(List.of("cluster", "run", host, "--dir", DIR.toString(), "--"));
    args.addAll(List.of(command));
    return ClusterTier.rekey(args.toArray(new String[0]));
  }

  /** A JVM on the test's class path running {@link GatewayProbe} (it creates {@code table}). */
  private static String[] probeCommand(String table) {
    return new String[] {
      Path.of(System.getProperty("java.home"), "bin", "java").toString(),
      "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
      "-Dio.netty.tryReflectionSetAccessible=true",
      "-Dlog4j2.level=WARN",
      "-cp",
      System.getProperty("java.class.path"),
      GatewayProbe.class.getName(),
      table
    };
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

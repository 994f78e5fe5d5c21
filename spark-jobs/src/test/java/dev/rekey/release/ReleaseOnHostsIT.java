package dev.rekey.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.embedded.HostsCluster;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * The release as a platform team installs it, on the several-host stack's gateway ({@code cluster
 * start --hosts 2}): the bin tarball unpacked into an empty directory, run with no mvn on the PATH
 * and an empty HOME (no ~/.m2), the gateway's SPARK_HOME (the stack's Spark), HADOOP_CONF_DIR and
 * HBASE_CONF_DIR; every job through that Spark's spark-submit, on YARN, with no Spark option but
 * --master and --deploy-mode: a backfill, a nightly scan with its report on HDFS, a reconcile, in
 * client and in cluster deploy mode; each backfill ends with the old and the new table compared by
 * natural key, every cell and version. Needs root (network namespaces); skipped otherwise.
 *
 * <p>Reconcile writes its report directory on the driver's local disk, which a YARN cluster-mode
 * driver has away from the gateway: there it is refused before it reads (docs/production.md), and
 * this test runs it in client mode only.
 */
@Tag("cluster")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReleaseOnHostsIT {
  /** The same stack directory as SeveralHostsIT: one stack at a time on this machine. */
  private static final Path DIR = SharedHBase.runRoot().resolve("hosts-cluster");

  /** Under the stack's directory (not /tmp, which each host has its own of): every host sees it. */
  private static final Path WORK = DIR.resolve("release-it");

  private static final int ROWS = 20_000;

  private Path release;
  private Path noMaven;
  private Path home;
  private boolean started;

  @BeforeAll
  void start() throws Exception {
    Assumptions.assumeTrue(HostsCluster.permitted(), "needs root and network namespaces");
    Assumptions.assumeFalse(
        DIR.toAbsolutePath().normalize().startsWith("/tmp"),
        "the several-host stack cannot run from a checkout under /tmp (each host has its own /tmp)");
    RekeyProcess.Result s =
        RekeyProcess.run(
            400, "cluster", "start", "--hosts", "2", "--dir", DIR.toString(), "--timeout", "280");
    System.out.println(s.all());
    assertEquals(0, s.exitCode(), s.all());
    started = true;
    if (Files.exists(WORK)) {
      RekeyProcess.run(new ProcessBuilder("rm", "-rf", WORK.toString()), 300);
    }
    Path tarball = Releases.build(WORK.resolve("out"), false);
    Path empty = Files.createDirectories(WORK.resolve("install"));
    noMaven = Releases.pathWithoutMaven(WORK.resolve("no-maven-bin"));
    home = Files.createDirectories(WORK.resolve("empty-home"));
    // unpacked on the gateway, by its user
    gateway("tar -xzf " + tarball + " -C " + empty);
    release = empty.resolve(Releases.NAME);
    assertTrue(!Files.exists(release.resolve("pom.xml")));
    // the source table and its snapshot (a plain HBase client of the checkout's test classes)
    RekeyProcess.Result fill = probe("fill", "rel_v1", Integer.toString(ROWS), "rel_v1_snap");
    assertTrue(fill.stdout().contains("probe filled: " + ROWS + " rows"), fill.all());
  }

  @AfterAll
  void stop() throws Exception {
    if (started) {
      RekeyProcess.run(300, "cluster", "stop", "--dir", DIR.toString());
    }
  }

  @Test
  @Order(1)
  void versionNamesTheClustersSparkAndHadoop() throws Exception {
    RekeyProcess.Result r = gateway("bin/rekey --version");
    assertTrue(r.stdout().startsWith("rekey 0.4.0 (commit "), r.all());
    assertTrue(r.stdout().contains("found at run time: Spark 3.5.9"), r.all());
    assertTrue(r.stdout().contains("Hadoop 3.3.6"), r.all());
    RekeyProcess.Result c =
        gateway("bin/rekey config backfill --master yarn --deploy-mode cluster");
    assertTrue(c.stdout().matches("(?s).*spark-submit: \\S+/bin/spark-submit.*"), c.all());
    assertTrue(c.stdout().contains("spark.executor.extraClassPath=__app__.jar"), c.all());
  }

  @Test
  @Order(2)
  void backfillScanAndReconcileOnYarnInClientMode() throws Exception {
    jobsIn("client", "rel_v2_client");
    RekeyProcess.Result rec =
        gateway(
            "bin/rekey reconcile --master yarn --old-table rel_v1 --old-layout telemetry-v1"
                + " --new-table rel_v2_client --new-layout telemetry-v2 --bucket 1h"
                + " --from 2026-11-29 --to 2026-11-30 --digest --out "
                + WORK.resolve("reconcile-client"));
    assertTrue(rec.stdout().contains("MATCH: all 24 buckets agree"), rec.all());
  }

  @Test
  @Order(3)
  void backfillAndScanOnYarnInClusterMode() throws Exception {
    jobsIn("cluster", "rel_v2_cluster");
  }

  /**
   * create-table, backfill, the old and new table compared, then a scan with its report on HDFS
   * read back, all with {@code --deploy-mode mode}.
   */
  private void jobsIn(String mode, String table) throws Exception {
    probe("drop", table);
    // in cluster mode the driver runs on a worker: files it reads by path are the release's, at
    // the same path on every host
    String layouts = release.resolve("conf/layouts").toString();
    gateway(
        "bin/rekey create-table --table "
            + table
            + " --layout telemetry-v2 --splits salt --family d");
    gateway(
        "bin/rekey backfill --master yarn --deploy-mode "
            + mode
            + " --conf spark.executor.memory=768m --hbase-site $HBASE_CONF_DIR/hbase-site.xml"
            + " --source-snapshot rel_v1_snap --source-layout "
            + layouts
            + "/telemetry-v1.yaml --target-table "
            + table
            + " --target-layout "
            + layouts
            + "/telemetry-v2.yaml --staging hdfs:///rekey-release-it/staging-"
            + mode);
    String compare =
        probe(
                "compare",
                "rel_v1",
                layouts + "/telemetry-v1.yaml",
                table,
                layouts + "/telemetry-v2.yaml")
            .stdout();
    assertTrue(compare.contains("probe equal: true " + ROWS + " rows"), compare);
    String out = "hdfs:///rekey-release-it/nightly-" + mode;
    gateway(
        "bin/rekey scan --master yarn --deploy-mode "
            + mode
            + " --conf spark.executor.memory=768m --hbase-site $HBASE_CONF_DIR/hbase-site.xml"
            + " --table "
            + table
            + " --layout "
            + layouts
            + "/telemetry-v2.yaml --day 2026-11-29 --report "
            + release.resolve("sql/device_window_counts.sql")
            + " --format csv --out "
            + out);
    List<String> rows =
        probe("cat", out + "/device_window_counts")
            .stdout()
            .lines()
            .filter(l -> l.startsWith("probe line: ") && l.length() > 12)
            .toList();
    assertTrue(rows.size() > 10, "the report has rows on HDFS: " + rows);
  }

  /**
   * {@code COMMAND} in a shell on the gateway, in the unpacked release (or WORK before it exists),
   * as its user: no mvn on the PATH, an empty HOME; the gateway's SPARK_HOME, HADOOP_CONF_DIR,
   * HBASE_CONF_DIR as {@code cluster run} gives them. Exit 0 asserted.
   */
  private RekeyProcess.Result gateway(String command) throws Exception {
    Path cwd = release != null ? release : WORK;
    List<String> args =
        new ArrayList<>(
            List.of(
                "cluster",
                "run",
                "gateway",
                "--dir",
                DIR.toString(),
                "--",
                "env",
                "PATH=" + noMavenOr() + ":/nonexistent",
                "HOME=" + (home != null ? home : WORK),
                "bash",
                "-c",
                "cd " + cwd + " && ! command -v mvn && test ! -d \"$HOME/.m2\" && " + command));
    RekeyProcess.Result r = RekeyProcess.run(1500, args.toArray(new String[0]));
    System.out.println(r.all());
    assertEquals(0, r.exitCode(), command + "\n" + r.all());
    return r;
  }

  private String noMavenOr() {
    return noMaven != null ? noMaven.toString() : "/usr/bin";
  }

  /** The checkout's GatewayProbe on the gateway (a plain client; test classes), exit 0 asserted. */
  private static RekeyProcess.Result probe(String... args) throws Exception {
    List<String> c =
        new ArrayList<>(
            List.of(
                "cluster",
                "run",
                "gateway",
                "--dir",
                DIR.toString(),
                "--",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/java.lang=ALL-UNNAMED",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
                "-Dio.netty.tryReflectionSetAccessible=true",
                "-Dlog4j2.level=WARN",
                "-cp",
                System.getProperty("java.class.path"),
                "dev.rekey.cluster.GatewayProbe"));
    c.addAll(List.of(args));
    RekeyProcess.Result r = RekeyProcess.run(900, c.toArray(new String[0]));
    System.out.println(r.all());
    assertEquals(0, r.exitCode(), r.all());
    return r;
  }
}

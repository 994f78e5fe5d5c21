package dev.rekey.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.rekey.demo.ClusterSubmit;
import dev.rekey.embedded.HBaseVersion;
import dev.rekey.embedded.SparkDistribution;
import dev.rekey.embedded.TestServer;
import dev.rekey.jobs.repair.MigrationScenarios;
import dev.rekey.testing.ClusterSide;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The compatibility tier's Spark rows: rekey's jar ({@code *-spark.jar}, as built) submitted by the
 * {@code spark-submit} of another Spark release's home ({@link SparkDistribution}: that release's
 * published jars, its own Hadoop client, laid out as the cluster's Spark home is), local master,
 * the way the README's recipe submits it, against an embedded server of the built HBase. Each cell
 * ends in a natural-key, every-cell comparison; {@link CompatRecords} records it with the Spark and
 * Hadoop the job ran on.
 */
@Tag("compat")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(CompatRecords.class)
abstract class SparkCompatSuite implements CompatTarget {
  private TestServer server;
  private ClusterSide side;
  private ClusterSubmit submit;
  private String hadoop = "?";
  private MigrationScenarios.Backfilled backfilled;
  private Path dir;

  /** The Spark release whose spark-submit runs rekey's jar. */
  abstract String sparkVersion();

  @Override
  public String component() {
    return "spark";
  }

  @Override
  public String release() {
    return sparkVersion();
  }

  @Override
  public Map<String, String> client() {
    return Map.of("spark", sparkVersion(), "hadoop", hadoop);
  }

  @BeforeAll
  void sparkHomeAndServer() throws Exception {
    long t0 = System.nanoTime();
    Throwable failure = null;
    try {
      dir = Files.createTempDirectory("compat-spark-" + sparkVersion());
      SparkDistribution spark = new SparkDistribution(sparkVersion());
      hadoop = SparkDistribution.hadoopOf(spark.jars(System.out::println));
      Path sparkSubmit = spark.sparkSubmit(System.out::println);
      submit = new ClusterSubmit(sparkSubmit, SharedHBase.sparkJar(), dir.resolve("logs"));
      // the home's own launcher reports its release
      Process p =
          new ProcessBuilder(sparkSubmit.toString(), "--version").redirectErrorStream(true).start();
      String version = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(0, p.waitFor(), version);
      assertTrue(version.contains("version " + sparkVersion()), version);
      server =
          new TestServer(
              SharedHBase.runRoot().resolve("hbase-spark-" + sparkVersion()),
              "compat-spark-" + sparkVersion());
      side =
          new ClusterSide(
              "HBase " + HBaseVersion.built(),
              server.connection(),
              server.conf(),
              server.server().clientSite());
    } catch (Throwable t) {
      failure = t;
      throw t;
    } finally {
      CompatRecords.record(this, "spark home", failure, (System.nanoTime() - t0) / 1e9);
    }
  }

  @AfterAll
  void stopServer() {
    if (server != null) {
      server.stop();
    }
  }

  @Test
  @Order(1)
  @Cell("backfill")
  void backfillOfASnapshot() throws Exception {
    MigrationScenarios.Backfilled m = MigrationScenarios.start(side, side);
    ok(
        "backfill",
        ClusterSubmit.backfill(
            sites(),
            m.snapshot(),
            "telemetry-v1",
            m.v2().getNameAsString(),
            "telemetry-v2",
            dir.resolve("staging").toString()));
    MigrationScenarios.assertBackfilled(side, side, m);
    backfilled = m;
  }

  @Test
  @Order(2)
  @Cell("scan")
  void scanOfASnapshot() throws Exception {
    assumeTrue(backfilled != null, "needs the backfill cell's snapshot");
    Path out = dir.resolve("scan");
    List<String> args = new ArrayList<>(List.of("scan"));
    args.addAll(sites());
    args.addAll(
        List.of(
            "--snapshot",
            backfilled.snapshot(),
            "--layout",
            "telemetry-v1",
            "--report",
            ScanCheck.report(dir.resolve("report")).toString(),
            "--out",
            out.toString()));
    ok("scan", args);
    ScanCheck.assertNewestCellsOf(
        side.connection(),
        backfilled.v1(),
        Layouts.shipped("telemetry-v1"),
        out.resolve("cells").toString());
  }

  @Test
  @Order(3)
  @Cell("reconcile")
  void reconcileFindsEqualTablesThenADifference() throws Exception {
    assumeTrue(backfilled != null, "needs the backfill cell's tables");
    ok(
        "reconcile",
        MigrationScenarios.reconcileArgs(
            side, side, backfilled.v1(), backfilled.v2(), dir.resolve("reconcile-equal")));
    MigrationScenarios.damage(side, side, backfilled);
    ClusterSubmit.Outcome differs =
        submit.run(
            "reconcile-damaged",
            "local[2]",
            false,
            asSubmitted(
                MigrationScenarios.reconcileArgs(
                    side,
                    side,
                    backfilled.v1(),
                    backfilled.v2(),
                    dir.resolve("reconcile-damaged"))),
            System.out::println);
    assertEquals(3, differs.exitCode(), "a mismatch is exit 3; " + tail(differs.log()));
  }

  /**
   * {@code args} as a user of spark-submit gives them: layouts as files (a layout's name resolves
   * under bin/rekey's home, which a bare spark-submit has not).
   */
  private static List<String> asSubmitted(List<String> args) {
    return args.stream()
        .map(a -> a.matches("telemetry-v\\d") ? Layouts.file(a).toString() : a)
        .toList();
  }

  private List<String> sites() {
    return List.of("--hbase-site", side.site().toString());
  }

  /** {@code rekey ARGS} through the home's spark-submit on a local master: exit 0 asserted. */
  private void ok(String name, List<String> args) throws Exception {
    List<String> stdout = new ArrayList<>();
    ClusterSubmit.Outcome o =
        submit.run(
            name,
            "local[2]",
            false,
            asSubmitted(args),
            line -> {
              System.out.println(line);
              stdout.add(line);
            });
    assertEquals(
        0,
        o.exitCode(),
        () -> {
          try {
            return name
                + " through Spark "
                + sparkVersion()
                + "'s spark-submit: exit "
                + o.exitCode()
                + ", "
                + firstError(o.log())
                + "\n"
                + String.join("\n", stdout)
                + "\n"
                + tail(o.log());
          } catch (IOException e) {
            return name + ": " + e;
          }
        });
  }

  /** The log's first error line (rekey's "Error: ...", an exception): the line the record keeps. */
  private static String firstError(Path log) throws IOException {
    return Files.readAllLines(log, StandardCharsets.ISO_8859_1).stream()
        .filter(l -> l.startsWith("Error:") || l.matches("^\\S*(Exception|Error)\\b.*"))
        .findFirst()
        .orElse("no error line in " + log);
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
    return log
        + ":\n"
        + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
  }
}

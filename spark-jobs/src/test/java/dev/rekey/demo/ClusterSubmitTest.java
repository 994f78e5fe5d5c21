package dev.rekey.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ClusterSubmitTest {
  private final ClusterSubmit submit =
      new ClusterSubmit(
          Path.of("/c/bin/spark-submit"), Path.of("/r/rekey.jar"), Path.of("/c/logs"));

  @Test
  void yarnShipsTheJarAsTheReadmeDoes() {
    List<String> a = submit.argv("yarn", false, List.of("scan", "--table", "t"));
    assertEquals(
        List.of(
            "--master",
            "yarn",
            "--deploy-mode",
            "client",
            "--class",
            "dev.rekey.cli.Rekey",
            "--conf",
            "spark.hadoopRDD.ignoreEmptySplits=false",
            "--conf",
            "spark.driver.extraClassPath=/r/rekey.jar",
            "--conf",
            "spark.executor.extraClassPath=rekey.jar",
            "--files",
            "/r/rekey.jar#rekey.jar",
            "/r/rekey.jar",
            "scan",
            "--table",
            "t"),
        a);
  }

  @Test
  void standaloneClusterModeGivesTheDriverTheJava17FlagsAndWaitsForIt() {
    List<String> a = submit.argv("spark://127.0.0.1:7077", true, List.of("backfill"));
    String joined = String.join(" ", a);
    assertTrue(joined.contains("--deploy-mode cluster"));
    assertTrue(joined.contains("spark.driver.extraJavaOptions=-XX:+IgnoreUnrecognizedVMOptions"));
    assertTrue(joined.contains("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"));
    assertTrue(joined.contains("spark.standalone.submit.waitAppCompletion=true"));
    assertTrue(joined.contains("spark.executor.extraClassPath=/r/rekey.jar"));
    assertFalse(joined.contains("--files"));
    assertEquals(List.of("/r/rekey.jar", "backfill"), a.subList(a.size() - 2, a.size()));
  }

  @Test
  void aDriverThatFailedIsAFailureEvenWhenSparkSubmitExitedZero() {
    assertFalse(new ClusterSubmit.Outcome(0, "driver-1", "FAILED", Path.of("l"), 1.0).ok());
    assertTrue(new ClusterSubmit.Outcome(0, "driver-1", "FINISHED", Path.of("l"), 1.0).ok());
    assertTrue(new ClusterSubmit.Outcome(0, null, null, Path.of("l"), 1.0).ok());
    assertFalse(new ClusterSubmit.Outcome(1, null, null, Path.of("l"), 1.0).ok());
  }

  private static final List<String> SITES = List.of("--hbase-site", "/c/hbase-site.xml");
  private static final List<String> BOTH =
      List.of("telemetry_v2=v2.yaml", "telemetry_by_device=bd.yaml");
  private static final String BOTH_OPTIONS =
      "--target telemetry_v2=v2.yaml --target telemetry_by_device=bd.yaml";

  @Test
  void bothNewTablesAreBackfilledFromOneRead() {
    assertEquals(
        "backfill --hbase-site /c/hbase-site.xml --source-snapshot telemetry_v1_snap"
            + " --source-layout v1.yaml "
            + BOTH_OPTIONS
            + " --staging hdfs://nn/rekey-staging",
        line(ClusterSubmit.backfillDemo(SITES, "v1.yaml", BOTH, "hdfs://nn/rekey-staging")));
    // one target: the single-table options, as before
    assertEquals(
        "backfill --hbase-site /c/hbase-site.xml --source-snapshot s --source-layout v1.yaml"
            + " --target-table t2 --target-layout v2.yaml --staging /st",
        line(ClusterSubmit.backfill(SITES, "s", "v1.yaml", "t2", "v2.yaml", "/st")));
  }

  @Test
  void bothNewTablesAreReconciledAndRepairedByOneSubmissionEach() {
    String reconcile = line(ClusterSubmit.reconcileDemoDay(SITES, "v1.yaml", BOTH, Path.of("/o")));
    assertTrue(
        reconcile.startsWith(
            "reconcile --hbase-site /c/hbase-site.xml --old-table telemetry_v1 --old-layout v1.yaml "
                + BOTH_OPTIONS
                + " --bucket 1h --from "),
        reconcile);
    assertTrue(reconcile.endsWith(" --digest --out /o"), reconcile);
    String repair = line(ClusterSubmit.repairDemoDay(SITES, "v1.yaml", BOTH, Path.of("/r")));
    assertTrue(
        repair.startsWith(
            "repair --hbase-site /c/hbase-site.xml --old-table telemetry_v1 --via-snapshot"
                + " --old-layout v1.yaml "
                + BOTH_OPTIONS
                + " --bucket 1h --from "),
        repair);
    assertTrue(repair.endsWith(" --compact-if-masked --out /r"), repair);
    // one new table: the single-table options, as before
    assertTrue(
        line(ClusterSubmit.reconcileDemoDay(SITES, "v1.yaml", "t2", "v2.yaml", Path.of("/o")))
            .contains(" --new-table t2 --new-layout v2.yaml --bucket 1h "));
  }

  private static String line(List<String> args) {
    return String.join(" ", args);
  }

  @Test
  void regionsAlternateBetweenServersInKeyOrder() {
    assertEquals(
        List.of(0, 1, 0, 1, 0),
        java.util.stream.IntStream.range(0, 5)
            .mapToObj(i -> RegionSpread.serverFor(i, 2))
            .toList());
  }
}

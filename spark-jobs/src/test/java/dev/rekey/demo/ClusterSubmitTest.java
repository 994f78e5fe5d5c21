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

  @Test
  void bothNewTablesAreGivenAsTargetsToOneBackfillAndOneReconcile() {
    List<String> targets = List.of("telemetry_v2=v2.yaml", "telemetry_by_device=bd.yaml");
    List<String> sites = List.of("--hbase-site", "/c/hbase-site.xml");
    assertEquals(
        List.of(
            "backfill",
            "--hbase-site",
            "/c/hbase-site.xml",
            "--source-snapshot",
            "telemetry_v1_snap",
            "--source-layout",
            "v1.yaml",
            "--target",
            "telemetry_v2=v2.yaml",
            "--target",
            "telemetry_by_device=bd.yaml",
            "--staging",
            "hdfs://nn/rekey-staging"),
        ClusterSubmit.backfillDemo(sites, "v1.yaml", targets, "hdfs://nn/rekey-staging"));
    List<String> r = ClusterSubmit.reconcileDemoDay(sites, "v1.yaml", targets, Path.of("/out"));
    assertEquals(
        List.of(
            "reconcile",
            "--hbase-site",
            "/c/hbase-site.xml",
            "--old-table",
            "telemetry_v1",
            "--old-layout",
            "v1.yaml",
            "--target",
            "telemetry_v2=v2.yaml",
            "--target",
            "telemetry_by_device=bd.yaml",
            "--bucket",
            "1h"),
        r.subList(0, 13));
    assertEquals(List.of("--digest", "--out", "/out"), r.subList(r.size() - 3, r.size()));
    assertEquals(
        List.of(
            "backfill",
            "--hbase-site",
            "/c/hbase-site.xml",
            "--source-snapshot",
            "s",
            "--source-layout",
            "v1.yaml",
            "--target-table",
            "t2",
            "--target-layout",
            "v2.yaml",
            "--staging",
            "/st"),
        ClusterSubmit.backfill(sites, "s", "v1.yaml", "t2", "v2.yaml", "/st"));
    List<String> repair = ClusterSubmit.repairDemoDay(sites, "v1.yaml", targets, Path.of("/r"));
    assertEquals(
        List.of(
            "repair",
            "--hbase-site",
            "/c/hbase-site.xml",
            "--old-table",
            "telemetry_v1",
            "--via-snapshot",
            "--old-layout",
            "v1.yaml",
            "--target",
            "telemetry_v2=v2.yaml",
            "--target",
            "telemetry_by_device=bd.yaml",
            "--bucket",
            "1h"),
        repair.subList(0, 14));
    assertEquals(
        List.of("--compact-if-masked", "--out", "/r"),
        repair.subList(repair.size() - 3, repair.size()));
    // one target: the single-table options, as before
    assertEquals(
        List.of("--new-table", "t2", "--new-layout", "v2.yaml"),
        ClusterSubmit.reconcileDemoDay(sites, "v1.yaml", "t2", "v2.yaml", Path.of("/out"))
            .subList(7, 11));
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

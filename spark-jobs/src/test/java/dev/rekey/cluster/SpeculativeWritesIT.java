package dev.rekey.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.demo.ClusterSubmit;
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.embedded.LocalSparkCluster;
import dev.rekey.jobs.backfill.Backfill;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SlowWrites;
import dev.rekey.testing.TableContents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A backfill whose write task is speculated, on a Spark standalone cluster whose two workers are
 * two hosts to Spark (127.0.0.2 and 127.0.0.3): Spark never starts a speculative copy on a host
 * that runs an attempt of the task, so on one host (the local master, one worker) no copy is ever
 * launched. The first attempt of one write partition hangs after the first bytes of an HFile (the
 * straggler, {@link SlowWrites}); Spark starts a copy on the other host, keeps the copy's result
 * and kills the original.
 */
@Tag("e2e")
class SpeculativeWritesIT {
  private static final int ROWS = 3_000;
  private static final int SLOW_PARTITION = 1;
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");
  private static LocalSparkCluster cluster;
  private static String masterUrl;

  @BeforeAll
  static void startCluster() throws Exception {
    SharedHBase.server();
    cluster =
        new LocalSparkCluster(
            SharedHBase.runRoot().resolve("spark-speculation"), System.out::println);
    masterUrl =
        cluster.start(
            SharedHBase.sparkDistributionJars(),
            List.of("127.0.0.2", "127.0.0.3"),
            1,
            "1g",
            Duration.ofSeconds(120));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.stop();
    }
  }

  /**
   * On the default write path, in source order: each read task writes one file into every region
   * and the driver moves the files of the attempt whose result Spark kept. The sorted path ("sort":
   * HFileOutputFormat2's committer, under Spark's commit coordinator, commits one attempt) passes
   * too; it is left out of the default suite for its ~45 s.
   */
  @ParameterizedTest
  @ValueSource(strings = {"auto"})
  void aSpeculatedWriteTaskLoadsOnlyTheKeptAttemptsFilesAndLosesNothing(String path)
      throws Exception {
    TableName source = SharedHBase.uniqueTable("spec_" + path + "_v1");
    TableName target = SharedHBase.uniqueTable("spec_" + path + "_v2");
    String snapshot = source.getNameAsString() + "_snap";
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      LegacyTelemetryTable.create(admin, source);
      LegacyTelemetryTable.write(
          SharedHBase.connection(), source, TelemetryGenerator.oneDay(ROWS, 20), s -> {});
      ClusterTier.snapshotAndSaltedTarget(admin, source, snapshot, target, V2);
    }

    Path staging = SharedHBase.runRoot().resolve("spec-staging-" + target.getNameAsString());
    Path fault = SharedHBase.runRoot().resolve("spec-fault-" + target.getNameAsString());
    Path markers = fault.resolve("markers");
    Path testJar = SlowWrites.jar(fault);
    // the straggler's filesystem is found by Hadoop's conf the way HBase's metrics classes are
    List<String> sparkOptions =
        new ArrayList<>(
            ClusterTier.onStandalone(masterUrl, SharedHBase.sparkJar() + ":" + testJar));
    sparkOptions.addAll(
        List.of(
            // speculate as soon as half the tasks are done and one runs 1.5 x their median; by
            // duration alone (the efficiency rule would also weigh records read)
            "--conf",
            "spark.speculation=true",
            "--conf",
            "spark.speculation.interval=100ms",
            "--conf",
            "spark.speculation.quantile=0.5",
            "--conf",
            "spark.speculation.multiplier=1.5",
            "--conf",
            "spark.speculation.minTaskRuntime=500ms",
            "--conf",
            "spark.speculation.efficiency.enabled=false",
            "--conf",
            "spark.locality.wait=0s",
            // several read (= write) tasks, as on a large source, though this one is small
            "--conf",
            Backfill.MIN_SPLIT_BYTES + "=1",
            "--hbase-site",
            SlowWrites.site(fault, SLOW_PARTITION, markers).toString()));
    List<String> args =
        new ArrayList<>(
            ClusterSubmit.backfill(
                sparkOptions,
                snapshot,
                "telemetry-v1",
                target.getNameAsString(),
                "telemetry-v2",
                staging.toString()));
    args.addAll(List.of("--write-path", path, "--verbose"));
    ProcessBuilder pb = RekeyProcess.builder(args.toArray(String[]::new));
    pb.environment().put("REKEY_CLASSPATH", testJar.toString());
    long t0 = System.nanoTime();
    RekeyProcess.Result r = RekeyProcess.run(pb, 600);
    System.out.printf(
        "backfill (%s) with a speculated write task: %.1f s%n%s%n",
        path, (System.nanoTime() - t0) / 1e9, r.stdout());
    assertEquals(0, r.exitCode(), r.all());

    // the original attempt hung on one host, a copy ran on the other, and Spark killed the
    // original once the copy had succeeded; no other attempt of the partition ran. The kill reason
    // the original sees is "another attempt succeeded" (TaskSetManager) or "Stage finished" (the
    // DAGScheduler's kill of a finished job's tasks, sent right after and overwriting the first)
    String p = "p" + SLOW_PARTITION;
    assertEquals(
        List.of("copy-" + p + "-a1", "original-" + p, "original-" + p + "-killed"),
        list(markers),
        r.all());
    String original = Files.readString(markers.resolve("original-" + p));
    String copy = Files.readString(markers.resolve("copy-" + p + "-a1"));
    assertNotEquals(
        host(original), host(copy), "the copy ran on another host:\n" + original + copy);
    System.out.println(
        "original: "
            + original
            + "copy: "
            + copy
            + "original killed: "
            + Files.readString(markers.resolve("original-" + p + "-killed")));

    assertTrue(
        r.stdout().contains("read 3,000 = written 3,000 + quarantined 0 + filtered 0"), r.all());
    // what a run without a straggler loads: in source order one file per region from each read
    // task, sorted one per region
    int perRegion = 1;
    if (path.equals("auto")) {
      Matcher tasks = Pattern.compile("in (\\d+) tasks, writing HFiles").matcher(r.all());
      assertTrue(tasks.find(), r.all());
      perRegion = Integer.parseInt(tasks.group(1));
      assertTrue(
          perRegion > SLOW_PARTITION, "the slow partition is one of the tasks: " + perRegion);
    }
    int expectedFiles = perRegion * 16;
    String verifiedWithItsFiles = "\\s+\\d+\\s+.*\\s" + perRegion + "\\s+VERIFIED";
    assertTrue(
        r.stdout().contains("  " + expectedFiles + " HFiles; write "), "files:\n" + r.stdout());
    assertEquals(
        16,
        r.stdout().lines().filter(l -> l.matches(verifiedWithItsFiles)).count(),
        "every region verified with its files:\n" + r.stdout());
    assertTrue(r.stdout().contains("loaded=true verified=true"), r.stdout());
    assertEquals(
        expectedFiles,
        SharedHBase.storeFileCount(target),
        "the target's store holds no file twice");
    assertFalse(Files.exists(staging.resolve("attempts")), "no attempt dir is left behind");

    assertEquals(TableContents.byNaturalKey(source, V1), TableContents.byNaturalKey(target, V2));
  }

  private static List<String> list(Path dir) throws Exception {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (var s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static String host(String marker) {
    Matcher m = Pattern.compile("host=(\\S+)").matcher(marker);
    assertTrue(m.find(), marker);
    return m.group(1);
  }
}

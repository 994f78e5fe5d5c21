package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.embedded.LocalSparkCluster;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SpeculativeTasks;
import dev.rekey.testing.TableContents;
import dev.rekey.testing.TestJar;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Speculative write tasks on a real Spark standalone cluster: two workers under two host names
 * (Spark never runs a speculative copy on a host where the task already runs), speculation on with
 * settings that copy every task still running once one has finished. Both copies of a write task
 * write their HFiles; only the kept attempt's files may reach the staging regions.
 */
@Tag("e2e")
class BackfillSpeculationIT {
  private static final int ROWS = 6_000;
  private static LocalSparkCluster cluster;
  private static String masterUrl;

  @BeforeAll
  static void startCluster() throws Exception {
    SharedHBase.server();
    Path launchClasspath = SharedHBase.rekeyHome().resolve("spark-jobs/target/launch.classpath");
    cluster =
        new LocalSparkCluster(
            SharedHBase.runRoot().resolve("spark-speculation"), System.out::println);
    masterUrl =
        cluster.start(
            LocalSparkCluster.jarsOf(Files.readString(launchClasspath).trim(), null),
            1,
            "1g",
            Duration.ofSeconds(120));
    cluster.addWorker("localhost", 1, "1g", Duration.ofSeconds(120));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.stop();
    }
  }

  // Run once on 2026-12-01 (both paths: 842 s on a machine at load 50): the cluster, the listener
  // and the backfills worked, but Spark launched no speculative copy (every task attempt 0, four
  // tasks of a stage running at once), so the test cannot show what it is for. Next step: make one
  // write attempt slow on purpose from the test classpath (a FailingWrites-style filesystem whose
  // first attempt of one partition waits, polling with a deadline, until a second attempt of that
  // partition has started), and check the executors' cores and hosts in the task log.
  @Disabled("speculative copies did not launch with these settings (see the comment above)")
  @ParameterizedTest
  @ValueSource(strings = {"auto", "sort"})
  void speculativeCopiesOfWriteTasksLeaveNoDuplicateFilesAndTheTablesEndEqual(String path)
      throws Exception {
    BackfillFixture f = new BackfillFixture("bf_spec_" + path, ROWS, 20);
    f.snapshot();
    Path dir = f.staging.resolveSibling(f.staging.getFileName() + "-spec");
    Files.createDirectories(dir);
    Path taskLog = dir.resolve("tasks.log");
    Files.deleteIfExists(taskLog);
    String appJar =
        SharedHBase.rekeyHome()
            .resolve("spark-jobs/target/rekey-spark-jobs-0.1.0-SNAPSHOT-spark.jar")
            .toString();
    String[] common = {
      "backfill",
      "--source-snapshot",
      f.snapshot,
      "--source-layout",
      "telemetry-v1",
      "--target-table",
      f.target.getNameAsString(),
      "--target-layout",
      "telemetry-v2",
      "--staging",
      f.staging.toString(),
      "--write-path",
      path
    };
    RekeyProcess.Result w =
        RekeyProcess.run(
            600,
            concat(
                common,
                "--no-load",
                "--master",
                masterUrl,
                "--conf",
                "spark.executor.memory=768m",
                // HBase's metrics classes must come from Hadoop's class loader
                // (StandaloneClusterIT)
                "--conf",
                "spark.executor.extraClassPath=" + appJar,
                "--conf",
                "spark.jars=" + TestJar.of(dir.resolve("listener.jar"), SpeculativeTasks.class),
                "--conf",
                "spark.extraListeners=" + SpeculativeTasks.class.getName(),
                "--conf",
                SpeculativeTasks.FILE + "=" + taskLog,
                // every task still running once one finished is copied to the other host
                "--conf",
                "spark.speculation=true",
                "--conf",
                "spark.speculation.interval=20ms",
                "--conf",
                "spark.speculation.quantile=0.01",
                "--conf",
                "spark.speculation.multiplier=1.0",
                "--conf",
                "spark.speculation.minTaskRuntime=1ms",
                "--conf",
                "spark.speculation.efficiency.enabled=false"));
    assertEquals(0, w.exitCode(), w.all());
    assertTrue(
        w.stdout().contains("read 6,000 = written 6,000 + quarantined 0 + filtered 0"), w.stdout());

    // the write is the run's last stage: some of its tasks ran twice, at the same time
    List<String> tasks = Files.readAllLines(taskLog);
    int writeStage =
        tasks.stream().mapToInt(l -> Integer.parseInt(l.split(" ")[1])).max().orElseThrow();
    long copies =
        tasks.stream()
            .filter(l -> l.startsWith("start " + writeStage + " ") && l.endsWith(" true"))
            .count();
    assertTrue(copies > 0, "speculative copies of write tasks ran:\n" + String.join("\n", tasks));

    // every committed HFile holds distinct cells: their entries add up to exactly the cells written
    long entries = 0;
    Configuration conf = SharedHBase.conf();
    FileSystem fs = FileSystem.getLocal(conf);
    try (Stream<Path> all = Files.walk(f.staging.resolve("regions"))) {
      for (Path p :
          all.filter(Files::isRegularFile)
              .filter(p -> !p.getFileName().toString().startsWith("."))
              .toList()) {
        try (HFile.Reader r =
            HFile.createReader(
                fs, new org.apache.hadoop.fs.Path(p.toUri()), CacheConfig.DISABLED, true, conf)) {
          entries += r.getEntries();
        }
      }
    }
    assertEquals(2L * ROWS, entries, "2 cells per row, none twice, after " + copies + " copies");

    RekeyProcess.Result l = RekeyProcess.run(600, concat(common, "--resume"));
    assertEquals(0, l.exitCode(), l.all());
    assertTrue(l.stdout().contains("loaded=true verified=true"), l.stdout());
    assertEquals(
        TableContents.byNaturalKey(f.source, Layouts.shipped("telemetry-v1")),
        TableContents.byNaturalKey(f.target, Layouts.shipped("telemetry-v2")));
  }

  private static String[] concat(String[] a, String... b) {
    return Stream.concat(List.of(a).stream(), List.of(b).stream()).toArray(String[]::new);
  }
}

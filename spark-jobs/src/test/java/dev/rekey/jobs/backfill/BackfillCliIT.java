package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.testing.FailingWrites;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * bin/rekey backfill through SparkSubmit: a task failure mid-write, then load; and a bad-input exit
 * code.
 */
@Tag("e2e")
class BackfillCliIT {
  /**
   * On each write path: in source order (2 write tasks, one per core, each writing into every
   * region) and sorted (one per region).
   */
  @ParameterizedTest
  @CsvSource({"auto, 1, 32", "sort, 5, 16"})
  void aTaskFailingMidWriteLeavesNoDuplicateFilesAndLosesNothing(
      String path, int failing, int expectedFiles) throws Exception {
    SharedHBase.server();
    BackfillFixture f = new BackfillFixture("bf_fail_" + path, 2_000, 20);
    f.snapshot();
    String[] common = concat(backfill(f), "--write-path", path);
    // local[2,2]: a failed task is retried once; the chosen write partition's first attempt throws
    // after 50 cells
    // the fault comes from the test classpath: a local filesystem whose writes fail in that
    // partition's first attempt, installed through --hbase-site and REKEY_CLASSPATH
    Path dir = f.staging.getParent().resolve(f.staging.getFileName() + "-fault");
    ProcessBuilder pb =
        RekeyProcess.builder(
            concat(
                common,
                "--no-load",
                "--master",
                "local[2,2]",
                "--hbase-site",
                FailingWrites.site(dir, failing, 1).toString(),
                // as many tasks as on two cores, though the source is small
                "--conf",
                Backfill.MIN_SPLIT_BYTES + "=0",
                "--verbose"));
    pb.environment().put("REKEY_CLASSPATH", FailingWrites.jar(dir).toString());
    RekeyProcess.Result w = RekeyProcess.run(pb, 600);
    assertEquals(0, w.exitCode(), w.all());
    assertTrue(
        w.all().contains("injected test failure"), "the injected failure happened:\n" + w.all());
    assertTrue(
        w.stdout().contains("read 2,000 = written 2,000 + quarantined 0 + filtered 0"), w.stdout());

    // every committed HFile holds distinct cells: their entries add up to exactly the cells written
    long entries = 0;
    int files = 0;
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
          files++;
        }
      }
    }
    assertEquals(4_000, entries, "2,000 rows x 2 cells, no duplicates across " + files + " files");
    assertEquals(expectedFiles, files, "files of the kept attempts only");

    RekeyProcess.Result l = RekeyProcess.run(600, concat(common, "--resume"));
    assertEquals(0, l.exitCode(), l.all());
    assertTrue(l.stdout().contains("loaded=true verified=true"), l.stdout());
    BackfillIT.assertTargetMatchesGenerator(f);
  }

  /**
   * A write task that fails on every attempt Spark gives it ({@code local[2,3]}: three): the run
   * fails with the task's cause in its last line, and nothing is loaded; the same backfill without
   * the fault then completes with every cell.
   */
  @Test
  void aWriteTaskFailingAsOftenAsSparkRetriesItFailsTheRunNamingTheCauseAndLoadsNothing()
      throws Exception {
    SharedHBase.server();
    BackfillFixture f = new BackfillFixture("bf_maxfail", 1_000, 10);
    f.snapshot();
    String[] command =
        concat(backfill(f), "--master", "local[2,3]", "--conf", Backfill.MIN_SPLIT_BYTES + "=0");
    Path dir = f.staging.getParent().resolve(f.staging.getFileName() + "-fault");
    ProcessBuilder pb =
        RekeyProcess.builder(
            concat(command, "--hbase-site", FailingWrites.site(dir, 1, 99).toString()));
    pb.environment().put("REKEY_CLASSPATH", FailingWrites.jar(dir).toString());
    RekeyProcess.Result failed = RekeyProcess.run(pb, 600);
    assertEquals(1, failed.exitCode(), failed.all());
    List<String> lines = failed.stderr().strip().lines().toList();
    String last = lines.get(lines.size() - 1);
    assertTrue(
        last.startsWith("Error: ")
            && last.contains("failed 3 times")
            && last.contains("injected test failure (partition 1, attempt 2"),
        "the last line names the task, its attempts and the cause:\n" + failed.all());
    try (org.apache.hadoop.hbase.client.Table t = SharedHBase.connection().getTable(f.target)) {
      assertEquals(0, BackfillIT.countRows(t, new byte[0], new byte[0]), "nothing loaded");
    }

    // the same backfill without the fault, in this JVM (a third Spark start would add nothing)
    BackfillResult again =
        new Backfill(SharedSpark.session(), SharedHBase.conf(), f.options().build()).execute();
    assertTrue(again.verified(), again.lines().toString());
    BackfillIT.assertTargetMatchesGenerator(f);
  }

  @Test
  void aMissingTargetTableExitsNonZeroWithTheNextStep() throws Exception {
    SharedHBase.server();
    RekeyProcess.Result r =
        RekeyProcess.run(
            300,
            "backfill",
            "--source-snapshot",
            "nope_snap",
            "--source-layout",
            "telemetry-v1",
            "--target-table",
            "no_such_target_table",
            "--target-layout",
            "telemetry-v2");
    assertEquals(1, r.exitCode(), r.all());
    assertTrue(
        r.stderr()
            .contains(
                "Cannot backfill no_such_target_table: target table no_such_target_table does not "
                    + "exist (create it with `rekey create-table"),
        r.all());
  }

  /** bin/rekey backfill of the fixture's snapshot into its target, with its staging dir. */
  private static String[] backfill(BackfillFixture f) {
    return new String[] {
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
      f.staging.toString()
    };
  }

  private static String[] concat(String[] a, String... b) {
    return Stream.concat(List.of(a).stream(), List.of(b).stream()).toArray(String[]::new);
  }
}

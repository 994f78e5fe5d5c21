package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.testing.FailingWrites;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.TableContents;
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
   * On each write path: in source order (4 read tasks, each writing into every region) and sorted
   * (one per region).
   */
  @ParameterizedTest
  @CsvSource({"auto, 2, 64", "sort, 5, 16"})
  void aTaskFailingMidWriteLeavesNoDuplicateFilesAndLosesNothing(
      String path, int failing, int expectedFiles) throws Exception {
    SharedHBase.server();
    BackfillFixture f = new BackfillFixture("bf_fail_" + path, 2_000, 20);
    f.snapshot();
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
    // local[2,2]: a failed task is retried once; the chosen write partition's first attempt fails
    // writing its HFile (a test-only filesystem from the test classpath, FailingWrites)
    Path faults = f.staging.resolveSibling(f.staging.getFileName() + "-faults");
    RekeyProcess.Result w =
        RekeyProcess.run(
            600,
            concat(
                common,
                "--no-load",
                "--master",
                "local[2,2]",
                "--hbase-site",
                FailingWrites.site(faults, failing, 1).toString(),
                "--conf",
                "spark.jars=" + FailingWrites.jar(faults),
                "--verbose"));
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

  @Test
  void aWriteTaskFailingMoreOftenThanSparkRetriesItFailsWithNothingLoadedAndARerunCompletes()
      throws Exception {
    SharedHBase.server();
    BackfillFixture f = new BackfillFixture("bf_maxfail", 1_000, 10);
    f.snapshot();
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
      f.staging.toString()
    };
    // local[2,2]: spark.task.maxFailures is 2; write partition 1 fails on every attempt
    Path faults = f.staging.resolveSibling(f.staging.getFileName() + "-faults");
    RekeyProcess.Result w =
        RekeyProcess.run(
            600,
            concat(
                common,
                "--master",
                "local[2,2]",
                "--hbase-site",
                FailingWrites.site(faults, 1, 99).toString(),
                "--conf",
                "spark.jars=" + FailingWrites.jar(faults)));
    assertEquals(1, w.exitCode(), w.all());
    List<String> errLines = w.stderr().strip().lines().toList();
    String last = errLines.get(errLines.size() - 1);
    assertTrue(
        last.startsWith(
                "Error: Cannot backfill " + f.target.getNameAsString() + ": the write failed (")
            && last.contains("failed 2 times")
            && last.contains("injected test failure (partition 1, attempt 1")
            && last.contains("Nothing was loaded; fix the cause and run the backfill again"),
        last);
    assertTrue(
        TableContents.byNaturalKey(f.target, Layouts.shipped("telemetry-v2")).isEmpty(),
        "nothing loaded");
    assertFalse(
        Files.exists(f.staging.resolve("_manifest.json")), "no ledger: nothing can be loaded");

    // the cause gone, --resume finds no ledger and writes again; every cell and version arrives
    RekeyProcess.Result again = RekeyProcess.run(600, concat(common, "--resume"));
    assertEquals(0, again.exitCode(), again.all());
    assertTrue(again.stdout().contains("loaded=true verified=true"), again.stdout());
    assertEquals(
        TableContents.byNaturalKey(f.source, Layouts.shipped("telemetry-v1")),
        TableContents.byNaturalKey(f.target, Layouts.shipped("telemetry-v2")));
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

  private static String[] concat(String[] a, String... b) {
    return Stream.concat(List.of(a).stream(), List.of(b).stream()).toArray(String[]::new);
  }
}

package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.RekeyException;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import dev.rekey.testing.TableContents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the backfill refuses before it reads the snapshot: a salt layout the target's regions do not
 * split evenly, a staging dir it cannot write or that lacks the space. Each refusal names the
 * numbers or the path and cause, runs no Spark job and changes nothing in the target.
 */
@Tag("e2e")
class BackfillPreflightIT {
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");
  private static BackfillFixture f;

  @BeforeAll
  static void fixture() throws Exception {
    f = new BackfillFixture("bfpre", 2_000, 20);
    f.snapshot();
  }

  /**
   * Runs the backfill expecting a refusal; asserts it ran no Spark job and left the target as it
   * was.
   */
  private static RekeyException refused(BackfillOptions o) throws Exception {
    Map<String, List<String>> before = TableContents.byNaturalKey(f.target, V2);
    SparkContext sc = SharedSpark.session().sparkContext();
    AtomicInteger jobs = new AtomicInteger();
    SparkListener counter =
        new SparkListener() {
          @Override
          public void onJobStart(SparkListenerJobStart jobStart) {
            jobs.incrementAndGet();
          }
        };
    sc.addSparkListener(counter);
    try {
      RekeyException e =
          assertThrows(
              RekeyException.class,
              () -> new Backfill(SharedSpark.session(), SharedHBase.conf(), o).execute());
      assertEquals(0, jobs.get(), "refused before any Spark job: " + e.getMessage());
      assertEquals(before, TableContents.byNaturalKey(f.target, V2), "the target is unchanged");
      return e;
    } finally {
      sc.removeSparkListener(counter);
    }
  }

  @Test
  void aSaltLayoutWithMoreBucketsThanTheTargetSeparatesIsRefusedWithTheNumbers() throws Exception {
    String text = Files.readString(Layouts.file("telemetry-v2"));
    KeyLayout v2with32 =
        KeyLayout.parse(
            text.replace("name: telemetry-v2", "name: telemetry-v2-32")
                .replace("buckets: 16", "buckets: 32"),
            "telemetry-v2-32");
    RekeyException e = refused(f.options().targetLayout(v2with32).build());
    assertEquals(2, e.exitCode());
    assertTrue(
        e.getMessage()
            .startsWith(
                "Cannot backfill "
                    + f.target
                    + ": layout telemetry-v2-32 salts keys into 32 "
                    + "buckets (first byte 00..1f), but the table's 16 regions do not split them evenly: region 15 [0f, ) takes "
                    + "17 of the 32 buckets, where an even split puts at most 2 in a region (a hotspot of about 8.5x)"),
        e.getMessage());
    assertTrue(
        e.getMessage()
            .endsWith(
                "--splits salt`, or pick a --target-layout whose buckets match the table's "
                    + "regions)"),
        e.getMessage());
  }

  @Test
  void aStagingDirThatCannotBeCreatedIsRefusedWithThePathAndCauseThenAGoodOneCopiesEverything()
      throws Exception {
    Path notADir = SharedHBase.runRoot().resolve("faults-staging-is-a-file");
    Files.writeString(notADir, "a file where the staging dir's parent should be");
    Path staging = notADir.resolve("staging");
    RekeyException e = refusedStaging(staging);
    assertEquals(1, e.exitCode());
    assertTrue(
        e.getMessage().contains(notADir.toString()),
        "the cause names the file in the way: " + e.getMessage());

    // the refusal left nothing behind (no lock, no half-created dir) that stops the next run
    BackfillResult r =
        new Backfill(SharedSpark.session(), SharedHBase.conf(), f.options().build()).execute();
    assertTrue(r.verified(), r.lines().toString());
    assertEquals(
        TableContents.byNaturalKey(f.source, V1), TableContents.byNaturalKey(f.target, V2));
  }

  @Test
  void aStagingDirWithoutTheSpaceIsRefusedBeforeTheRead() throws Exception {
    try (Tmpfs mount = Tmpfs.mount("faults-tmpfs", "128k")) {
      Path staging = mount.dir.resolve("staging");
      RekeyException tooSmall = refused(f.options().staging(staging.toString()).build());
      assertTrue(
          tooSmall
              .getMessage()
              .startsWith(
                  "Cannot backfill " + f.target + ": staging dir file:" + staging + " has "),
          tooSmall.getMessage());
      assertTrue(
          tooSmall
              .getMessage()
              .matches(
                  "(?s).* has [0-9.]+ [kK]B free, and the HFiles need about [0-9.]+ [kKM]B "
                      + "\\(the size of snapshot "
                      + f.snapshot
                      + "'s store files\\) \\(free space there, or choose another "
                      + "--staging\\)"),
          tooSmall.getMessage());

      // full: the probe write itself fails, with the device's own words
      Files.write(mount.dir.resolve("filler"), new byte[100 * 1024]);
      RekeyException full = refusedStaging(staging);
      assertTrue(full.getMessage().contains("No space left on device"), full.getMessage());
      assertFalse(Files.exists(staging.resolve("_lock")), "no lock taken");
    }
  }

  /** The backfill into {@code staging}, refused as a staging dir that is not writable. */
  private static RekeyException refusedStaging(Path staging) throws Exception {
    RekeyException e = refused(f.options().staging(staging.toString()).build());
    String expected = "Cannot backfill " + f.target + ": staging dir file:" + staging;
    assertTrue(e.getMessage().startsWith(expected + " is not writable: "), e.getMessage());
    return e;
  }
}

package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.Poll;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.staging.Manifest;
import dev.rekey.jobs.backfill.staging.RegionEntry;
import dev.rekey.jobs.backfill.staging.RegionState;
import dev.rekey.jobs.backfill.staging.Staging;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import dev.rekey.testing.TableContents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Runs that overlap or stop half-way: one run per staging dir and target, and a resume that loads
 * nothing twice.
 */
@Tag("e2e")
class BackfillRunsIT {
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");

  private static BackfillResult run(BackfillOptions o, Consumer<String> progress) throws Exception {
    return new Backfill(SharedSpark.session(), SharedHBase.conf(), o).execute(progress);
  }

  /** Store files per region of a table, read from its RegionServer now. */
  private static Map<String, Integer> storeFiles(TableName table) throws Exception {
    Map<String, Integer> out = new TreeMap<>();
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      for (ServerName sn : admin.getRegionServers()) {
        for (RegionMetrics m : admin.getRegionMetrics(sn, table)) {
          out.put(Bytes.toStringBinary(m.getRegionName()), m.getStoreFileCount());
        }
      }
    }
    return out;
  }

  @Test
  void aSecondRunOnTheSameStagingOrTargetRefusesAtOnceAndTheFirstCompletes() throws Exception {
    BackfillFixture f = new BackfillFixture("bfr_two", 2_000, 20);
    f.snapshot();
    CompletableFuture<BackfillResult> first =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return run(f.options().build(), s -> {});
              } catch (Exception e) {
                throw new RuntimeException(e);
              }
            });
    Path lock = f.staging.resolve("_lock");
    Poll.until(
        () -> Files.exists(lock) || first.isDone(),
        Duration.ofSeconds(60),
        Duration.ofMillis(5),
        () -> new IllegalStateException("the first run never took its lock"));
    assertFalse(first.isDone(), "the first run is still going when the second starts");

    RekeyException sameStaging =
        assertThrows(RekeyException.class, () -> run(f.options().build(), s -> {}));
    assertTrue(
        sameStaging.getMessage().startsWith("Cannot backfill " + f.target + ": staging dir "),
        sameStaging.getMessage());
    assertEquals(ExitCodes.REFUSED, sameStaging.exitCode(), "a lock held is a refusal");
    assertTrue(
        sameStaging.getMessage().contains("is in use by another backfill (")
            && sameStaging.getMessage().contains("lock "),
        sameStaging.getMessage());
    Path otherStaging = f.staging.resolveSibling(f.staging.getFileName() + "-other");
    RekeyException sameTarget =
        assertThrows(
            RekeyException.class,
            () -> run(f.options().staging(otherStaging.toString()).build(), s -> {}));
    assertTrue(
        sameTarget
            .getMessage()
            .contains("target table " + f.target + " is in use by another backfill"),
        sameTarget.getMessage());
    assertEquals(ExitCodes.REFUSED, sameTarget.exitCode(), "a lock held is a refusal");

    BackfillResult r = first.get();
    assertTrue(r.verified(), r.lines().toString());
    assertFalse(Files.exists(lock), "the lock is removed when the run ends");
    assertEquals(
        TableContents.byNaturalKey(f.source, V1), TableContents.byNaturalKey(f.target, V2));
  }

  @Test
  void aStaleLockOfARunThatNoLongerRunsIsTakenOver() throws Exception {
    BackfillFixture f = new BackfillFixture("bfr_stale", 300, 5);
    f.snapshot();
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Files.createDirectories(f.staging);
    String host = dev.rekey.common.RunOwner.line().split(" ")[0];
    Files.writeString(
        f.staging.resolve("_lock"), host + " " + gone.pid() + " 2026-01-01T00:00:00Z\n");
    StringBuilder out = new StringBuilder();
    BackfillResult r = run(f.options().build(), s -> out.append(s).append('\n'));
    assertTrue(r.verified());
    assertTrue(
        out.toString().contains("from a run that no longer runs (" + host + " " + gone.pid()),
        out.toString());
  }

  @Test
  void aResumeAfterACrashBetweenTwoRegionLoadsLoadsOnlyTheRestAndNothingTwice() throws Exception {
    BackfillFixture f = new BackfillFixture("bfr_crash", 2_000, 20);
    f.snapshot();
    // the driver dies right after the ledger recorded the 6th region as loaded
    RuntimeException crash =
        assertThrows(
            RuntimeException.class,
            () -> run(f.options().build(), BackfillFixture.driverKilledAfterLoading(6)));
    assertEquals("driver killed", crash.getMessage());
    Staging staging = new Staging(f.staging.toString(), SharedHBase.conf());
    Manifest m = staging.readJson(staging.manifest(), Manifest.class);
    long loadedBefore = m.regions().stream().filter(e -> e.state() == RegionState.LOADED).count();
    assertTrue(loadedBefore >= 6 && loadedBefore < 16, "the 6th and those loading with it");
    assertEquals(
        16 - loadedBefore,
        m.regions().stream().filter(e -> e.state() == RegionState.WRITTEN).count());

    StringBuilder out = new StringBuilder();
    BackfillResult r = run(f.options().resume(true).build(), s -> out.append(s).append('\n'));
    assertTrue(r.verified(), r.lines().toString());
    assertTrue(
        out.toString().contains("Loaded " + (16 - loadedBefore) + " regions"), out.toString());
    assertTrue(
        out.toString().contains("Verified 16 regions by their loaded HFiles"), out.toString());
    Map<String, Integer> files = storeFiles(f.target);
    assertEquals(16, files.size());
    // bulk-loaded files are kept out of minor compactions: the store holds exactly the files
    // loaded, each once
    assertEquals(
        r.regions().stream().mapToInt(RegionEntry::files).sum(),
        files.values().stream().mapToInt(Integer::intValue).sum(),
        "no HFile loaded twice: " + files);
    assertEquals(
        TableContents.byNaturalKey(f.source, V1), TableContents.byNaturalKey(f.target, V2));

    StringBuilder again = new StringBuilder();
    assertTrue(run(f.options().resume(true).build(), s -> again.append(s).append('\n')).verified());
    assertTrue(
        again.toString().contains("Nothing to resume: every region was verified"),
        again.toString());
  }
}

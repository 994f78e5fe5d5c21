package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A backfill run again after it loaded (a retried scheduler job, a copy-pasted command) would load
 * every HFile a second time: it is refused, with any staging dir, unless asked to load again; a run
 * stopped before or during its load still resumes.
 */
@Tag("e2e")
class BackfillRepeatIT {
  private static BackfillResult run(BackfillOptions o, Consumer<String> progress) {
    return new Backfill(SharedSpark.session(), SharedHBase.conf(), o).execute(progress);
  }

  /** The message of a run refused as a usage error (exit 2). */
  private static String refused(BackfillOptions o) {
    RekeyException e = assertThrows(RekeyException.class, () -> run(o, s -> {}));
    assertEquals(ExitCodes.REFUSED, e.exitCode(), e.getMessage());
    return e.getMessage();
  }

  /** A local staging dir as the records name it (qualified). */
  private static String staging(Path dir) {
    return "file:" + dir.toAbsolutePath();
  }

  /** The table attribute holding the snapshot's load records, or null. */
  private static String record(BackfillFixture f) throws Exception {
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      return admin.getDescriptor(f.target).getValue("rekey.backfill." + f.snapshot);
    }
  }

  /** Each region's open sequence number: it changes when a region is reopened. */
  private static Map<String, Long> openSeqNums(TableName table) throws Exception {
    Map<String, Long> out = new TreeMap<>();
    try (RegionLocator l = SharedHBase.connection().getRegionLocator(table)) {
      for (HRegionLocation loc : l.getAllRegionLocations()) {
        out.put(loc.getRegion().getEncodedName(), loc.getSeqNum());
      }
    }
    return out;
  }

  /** The start of what a refusal or note says of the snapshot's earlier load. */
  private static String loaded(BackfillFixture f) {
    return "snapshot "
        + f.snapshot
        + " (taken "
        + Instant.ofEpochMilli(snapshotCreated(f))
        + ") was loaded into "
        + f.target
        + " by the run recorded at ";
  }

  private static long snapshotCreated(BackfillFixture f) {
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      return admin.listSnapshots().stream()
          .filter(s -> s.getName().equals(f.snapshot))
          .findFirst()
          .orElseThrow()
          .getCreationTime();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aFinishedRunIsRefusedWithAnyStagingDirUntilAskedToLoadAgain() throws Exception {
    BackfillFixture f = new BackfillFixture("bfrep", 2_000, 20);
    f.snapshot();
    String a = staging(f.staging);
    Path otherDir = f.staging.resolveSibling(f.staging.getFileName() + "-other");
    String b = staging(otherDir);
    Map<String, Long> opened = openSeqNums(f.target);

    BackfillResult first = run(f.options().build(), s -> {});
    assertTrue(first.verified(), first.lines().toString());
    assertNull(first.earlierLoad());
    int files = SharedHBase.storeFileCount(f.target);
    assertEquals(first.filesWritten(), files);
    String recorded = record(f);
    assertTrue(
        recorded.contains("\"state\":\"VERIFIED\"") && recorded.contains("\"staging\":\"" + a),
        recorded);
    // the record is a table attribute changed without reopening the regions
    assertEquals(opened, openSeqNums(f.target), "no region was reopened");

    String loaded = loaded(f);
    String choices =
        "; loading it again would put every cell in the table twice until a major compaction"
            + " (rerun with --resume --staging "
            + a
            + " to check it, or with --load-again to load it a second time on purpose)";
    // the same command again: refused before anything is written, the first run's ledger kept
    String same = refused(f.options().build());
    assertTrue(same.startsWith("Cannot backfill " + f.target + ": " + loaded), same);
    assertTrue(same.contains("(staging dir " + a + ", 2,000 rows, verified, by "), same);
    assertTrue(same.endsWith(choices), same);
    assertTrue(Files.exists(f.staging.resolve("_manifest.json")), "the ledger is kept");
    assertEquals(files, SharedHBase.storeFileCount(f.target));

    // with another staging dir: refused the same way, naming the first run's dir
    String other = refused(f.options().staging(otherDir.toString()).build());
    assertTrue(
        other.startsWith("Cannot backfill " + f.target + ": " + loaded) && other.endsWith(choices),
        other);
    assertFalse(Files.exists(otherDir.resolve("_manifest.json")), "nothing written");

    // runs that load nothing go on, and say that the load exists
    BackfillResult dry =
        run(f.options().staging(otherDir.toString()).dryRun(true).build(), s -> {});
    assertTrue(dry.earlierLoad().startsWith("Note: " + loaded), dry.earlierLoad());
    assertTrue(dry.lines().contains("  " + dry.earlierLoad()), dry.lines().toString());
    BackfillResult written =
        run(f.options().staging(otherDir.toString()).noLoad(true).build(), s -> {});
    assertFalse(written.loaded());
    assertTrue(
        written.earlierLoad().endsWith("a --resume will load them only with --load-again"),
        written.earlierLoad());
    // ... but their files are a second load: a --resume of them is refused, naming the dir that
    // holds the first run's ledger
    String resumeOther = refused(f.options().staging(otherDir.toString()).resume(true).build());
    assertTrue(
        resumeOther.startsWith(
                "Cannot resume the backfill of "
                    + f.target
                    + " in staging dir "
                    + b
                    + ": "
                    + loaded)
            && resumeOther.contains(", whose ledger is in staging dir " + a + ";")
            && resumeOther.endsWith(choices),
        resumeOther);
    assertEquals(files, SharedHBase.storeFileCount(f.target));

    // --resume on the first run's dir checks it: nothing to do, nothing loaded
    StringBuilder resumed = new StringBuilder();
    BackfillResult checked =
        run(f.options().resume(true).build(), s -> resumed.append(s).append('\n'));
    assertTrue(checked.verified());
    assertTrue(resumed.toString().contains("Nothing to resume"), resumed.toString());
    assertEquals(files, SharedHBase.storeFileCount(f.target));

    // asked for: loaded a second time, and said so
    StringBuilder again = new StringBuilder();
    BackfillResult twice =
        run(f.options().loadAgain(true).build(), s -> again.append(s).append('\n'));
    assertTrue(twice.verified(), twice.lines().toString());
    assertTrue(
        again.toString().contains("Loading again on purpose (--load-again): " + loaded),
        again.toString());
    assertTrue(
        twice.earlierLoad().startsWith("Loading again on purpose"), twice.lines().toString());
    assertEquals(files + twice.filesWritten(), SharedHBase.storeFileCount(f.target));
    f.assertTablesEqual();

    // a target dropped and created again (the demo's rerun) forgets the loads with the table
    f.recreateTarget();
    BackfillResult fresh = run(f.options().build(), s -> {});
    assertTrue(fresh.verified(), fresh.lines().toString());
    assertNull(fresh.earlierLoad());
    assertEquals(fresh.filesWritten(), SharedHBase.storeFileCount(f.target));
    f.assertTablesEqual();
  }

  @Test
  void aRunStoppedBeforeOrDuringItsLoadStillResumesAndIsNotLoadedTwice() throws Exception {
    BackfillFixture f = new BackfillFixture("bfrepkill", 2_000, 20);
    f.snapshot();
    // stopped after the write, before any load: nothing recorded, nothing blocks a resume
    assertFalse(run(f.options().noLoad(true).build(), s -> {}).loaded());
    assertNull(record(f), "no load, no record");

    // the resume's driver dies after the ledger recorded the 6th region as loaded
    RuntimeException crash =
        assertThrows(
            RuntimeException.class,
            () ->
                run(f.options().resume(true).build(), BackfillFixture.driverKilledAfterLoading(6)));
    assertEquals("driver killed", crash.getMessage());
    assertTrue(record(f).contains("\"state\":\"LOADING\""), record(f));
    int partial = SharedHBase.storeFileCount(f.target);
    assertTrue(partial > 0, "some regions were loaded");

    // the same command without --resume, or with another staging dir: refused, pointing at the
    // resume of the partial load
    String a = staging(f.staging);
    for (Path dir :
        new Path[] {f.staging, f.staging.resolveSibling(f.staging.getFileName() + "-2")}) {
      String e = refused(f.options().staging(dir.toString()).build());
      assertTrue(
          e.contains("(staging dir " + a + ", 2,000 rows, load not finished, by ")
              && e.endsWith(
                  "(its load did not finish: rerun with --resume --staging "
                      + a
                      + " to load the rest and verify it, or with --load-again to load"
                      + " everything a second time on purpose)"),
          e);
    }
    assertEquals(partial, SharedHBase.storeFileCount(f.target));

    BackfillResult r = run(f.options().resume(true).build(), s -> {});
    assertTrue(r.verified(), r.lines().toString());
    assertEquals(r.filesWritten(), SharedHBase.storeFileCount(f.target), "no HFile loaded twice");
    assertTrue(record(f).contains("\"state\":\"VERIFIED\""), record(f));
    f.assertTablesEqual();
  }
}

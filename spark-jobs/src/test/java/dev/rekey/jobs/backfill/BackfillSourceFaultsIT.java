package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.Poll;
import dev.rekey.common.RekeyException;
import dev.rekey.read.RegionReader;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import dev.rekey.testing.TableContents;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.SnapshotType;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Faults of the backfill's source: its snapshot deleted, or its TTL passing, while the job reads
 * it. Done for real on the embedded server: the snapshot is deleted (or its TTL passes) after the
 * job restored it for reading and before its read runs.
 */
@Tag("e2e")
class BackfillSourceFaultsIT {
  private static final int ROWS = 1_000;

  private static BackfillResult run(BackfillOptions o, Consumer<String> progress) throws Exception {
    return new Backfill(SharedSpark.session(), SharedHBase.conf(), o).execute(progress);
  }

  /** Runs {@code action} when the backfill starts its read (the snapshot is restored by then). */
  private static Consumer<String> atRead(IoAction action) {
    return line -> {
      if (line.startsWith("Reading snapshot")) {
        try {
          action.run();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    };
  }

  interface IoAction {
    void run() throws IOException;
  }

  @Test
  void aSnapshotDeletedMidJobFailsNamingItLoadsNothingAndARerunCopiesEverything() throws Exception {
    BackfillFixture f = new BackfillFixture("bf_snapgone", ROWS, 10);
    f.snapshot();
    Admin admin = SharedHBase.connection().getAdmin();
    RekeyException e =
        assertThrows(
            RekeyException.class,
            () -> run(f.options().build(), atRead(() -> admin.deleteSnapshot(f.snapshot))));
    assertEquals(
        "Cannot backfill "
            + f.target
            + ": snapshot "
            + f.snapshot
            + " does not exist any more, and the job was reading it",
        e.getMessage().substring(0, e.getMessage().indexOf(" (the files")),
        e.getMessage());
    assertTrue(
        e.getMessage().contains("Nothing was loaded and the staged HFiles were removed"),
        e.getMessage());
    assertNothingLeft(f);

    f.snapshot(); // taken again: the rerun copies every cell
    BackfillResult r = run(f.options().build(), line -> {});
    assertTrue(r.verified());
    assertEquals(
        TableContents.byNaturalKey(f.source, Layouts.shipped("telemetry-v1")),
        TableContents.byNaturalKey(f.target, Layouts.shipped("telemetry-v2")));
  }

  @Test
  void aSnapshotWhoseTtlPassesMidJobFailsNamingItAndAnExpiredOneIsRefusedBeforeTheRead()
      throws Exception {
    BackfillFixture f = new BackfillFixture("bf_snapttl", ROWS, 10);
    Admin admin = SharedHBase.connection().getAdmin();
    admin.flush(f.source);
    long ttlSeconds = 3;
    admin.snapshot(
        new SnapshotDescription(
            f.snapshot, f.source, SnapshotType.FLUSH, Map.of("TTL", ttlSeconds)));
    long created =
        admin.listSnapshots().stream()
            .filter(s -> s.getName().equals(f.snapshot))
            .findFirst()
            .orElseThrow()
            .getCreationTime();
    // the TTL passes after the job restored the snapshot and before its read (if the machine is
    // slow enough for it to pass before the job starts, the refusal before the read says the same)
    RekeyException e =
        assertThrows(
            RekeyException.class,
            () ->
                run(
                    f.options().build(),
                    atRead(
                        () ->
                            Poll.until(
                                () -> System.currentTimeMillis() > created + ttlSeconds * 1000 + 1,
                                Duration.ofSeconds(30),
                                Duration.ofMillis(100),
                                () -> new IllegalStateException("the TTL did not pass")))));
    assertTrue(
        e.getMessage().contains("snapshot " + f.snapshot + " expired at ")
            && e.getMessage().contains("(TTL 3 s from "),
        e.getMessage());
    assertTrue(e.getMessage().startsWith("Cannot "), e.getMessage());
    assertNothingLeft(f);

    RekeyException before =
        assertThrows(RekeyException.class, () -> run(f.options().build(), line -> {}));
    assertTrue(
        before
                .getMessage()
                .startsWith(
                    "Cannot read snapshot "
                        + f.snapshot
                        + ": snapshot "
                        + f.snapshot
                        + " expired at ")
            && before.getMessage().contains("Nothing was read. Take a new snapshot"),
        before.getMessage());
    assertNothingLeft(f);
    admin.deleteSnapshot(f.snapshot);
  }

  /** Target unchanged (empty), no staged HFiles or manifest, no restore dir of the snapshot. */
  private static void assertNothingLeft(BackfillFixture f) throws Exception {
    assertEquals(
        Map.of(),
        TableContents.byNaturalKey(f.target, Layouts.shipped("telemetry-v2")),
        "nothing loaded");
    for (String n : new String[] {"_manifest.json", "hfiles", "attempts", "regions"}) {
      assertFalse(Files.exists(f.staging.resolve(n)), "staging keeps no " + n);
    }
    Configuration conf = SharedHBase.conf();
    FileSystem fs = CommonFSUtils.getRootDir(conf).getFileSystem(conf);
    org.apache.hadoop.fs.Path root = RegionReader.defaultRestoreRoot(fs);
    FileStatus[] dirs = fs.exists(root) ? fs.listStatus(root) : new FileStatus[0];
    assertTrue(
        Arrays.stream(dirs).noneMatch(d -> d.getPath().getName().startsWith(f.snapshot)),
        "no restore dir of " + f.snapshot + " left: " + Arrays.toString(dirs));
  }
}

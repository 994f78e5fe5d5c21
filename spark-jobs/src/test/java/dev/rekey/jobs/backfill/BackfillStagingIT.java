package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.RekeyException;
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.jobs.backfill.staging.Manifest;
import dev.rekey.jobs.backfill.staging.RegionState;
import dev.rekey.jobs.backfill.staging.Staging;
import dev.rekey.read.RegionReader;
import dev.rekey.read.TemporarySnapshots;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import dev.rekey.testing.TableContents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The staging dir between write and load is the user's filesystem: files that appear in it or get
 * damaged.
 */
@Tag("e2e")
class BackfillStagingIT {
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");

  private static BackfillResult run(BackfillOptions o) throws Exception {
    return new Backfill(SharedSpark.session(), SharedHBase.conf(), o).execute();
  }

  private static Manifest ledger(BackfillFixture f) throws Exception {
    Staging staging = new Staging(f.staging.toString(), SharedHBase.conf());
    return staging.readJson(staging.manifest(), Manifest.class);
  }

  private static long inState(Manifest m, RegionState s) {
    return m.regions().stream().filter(r -> r.state() == s).count();
  }

  @Test
  void junkOrTruncatedFilesInStagingRefuseTheirRegionsLoadAndAResumeAfterTheFixLosesNothing()
      throws Exception {
    BackfillFixture f = new BackfillFixture("bfjunk", 1_000, 10);
    // cells stamped in the future and at time 0 (HBase refuses negative timestamps): copied
    // exactly, as any other
    try (Table src = SharedHBase.connection().getTable(f.source)) {
      byte[] key = V1.encode(Map.of("ts", 1_700_000_000_000L, "deviceId", new byte[16]));
      long future = System.currentTimeMillis() + 365L * 24 * 3600 * 1000;
      src.put(
          new Put(key)
              .addColumn(
                  LegacyTelemetryTable.FAMILY,
                  LegacyTelemetryTable.VALUE,
                  future,
                  Bytes.toBytes(1L))
              .addColumn(
                  LegacyTelemetryTable.FAMILY, Bytes.toBytes("early"), 0L, Bytes.toBytes(2L)));
    }
    f.snapshot();
    run(f.options().noLoad(true).build());
    assertEquals(16, inState(ledger(f), RegionState.WRITTEN));

    // a stray file in region 3's family dir: the count differs from the ledger's, region 3 is not
    // loaded
    Path family3 = f.staging.resolve("regions/r-00003/d");
    Path junk = family3.resolve("notes.txt");
    Files.writeString(junk, "not an HFile");
    int files3 = ledger(f).regions().get(3).files();
    RekeyException e =
        assertThrows(RekeyException.class, () -> run(f.options().resume(true).build()));
    assertTrue(e.getMessage().startsWith("Cannot load region 3 "), e.getMessage());
    assertTrue(
        e.getMessage().contains("the manifest lists " + files3 + " HFiles but "), e.getMessage());
    assertTrue(e.getMessage().contains("r-00003 holds " + (files3 + 1)), e.getMessage());
    Manifest afterJunk = ledger(f);
    // every pending region's files are counted before the first load: nothing is loaded at all
    assertEquals(0, inState(afterJunk, RegionState.LOADED), "no region loaded");
    assertEquals(RegionState.WRITTEN, afterJunk.regions().get(3).state());
    Files.delete(junk);

    // region 5's HFile cut short: its load fails, the ledger does not call it loaded, the original
    // is kept
    Path hfile;
    try (Stream<Path> s = Files.list(f.staging.resolve("regions/r-00005/d"))) {
      hfile = s.filter(p -> !p.getFileName().toString().startsWith(".")).findFirst().orElseThrow();
    }
    Path whole = f.staging.resolveSibling("faults-r5-" + hfile.getFileName());
    Files.copy(hfile, whole, StandardCopyOption.REPLACE_EXISTING);
    byte[] bytes = Files.readAllBytes(hfile);
    Files.delete(hfile); // a new file, not the one the ledger's copy links to
    Files.write(hfile, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    Files.deleteIfExists(hfile.resolveSibling("." + hfile.getFileName() + ".crc"));
    Exception cut = assertThrows(Exception.class, () -> run(f.options().resume(true).build()));
    assertTrue(
        cut.getMessage().contains("Problem reading HFile Trailer from file ")
            && cut.getMessage().contains("/r-00005/d/" + hfile.getFileName()),
        "names the damaged file: " + cut);
    assertTrue(cut.getMessage().startsWith("Cannot load region 5 of "), cut.getMessage());
    Manifest afterCut = ledger(f);
    // the loader reads every file's keys before it loads any region: nothing is loaded
    assertEquals(0, inState(afterCut, RegionState.LOADED), "no region loaded: " + cut);
    assertEquals(RegionState.WRITTEN, afterCut.regions().get(5).state(), "not loaded: " + cut);

    // the user puts the file back: the resume loads the rest, nothing twice, and the tables are
    // equal
    Files.move(whole, hfile, StandardCopyOption.REPLACE_EXISTING);
    // and a verify killed earlier left its snapshot and restore dir: this run (holding the target's
    // lock) removes them
    String leaked = TemporarySnapshots.prefix("verify", f.target) + "dead0001";
    Admin admin = SharedHBase.connection().getAdmin();
    admin.snapshot(leaked, f.target);
    Configuration conf = SharedHBase.conf();
    FileSystem fs = CommonFSUtils.getRootDir(conf).getFileSystem(conf);
    org.apache.hadoop.fs.Path restore =
        new org.apache.hadoop.fs.Path(RegionReader.defaultRestoreRoot(fs), leaked);
    fs.mkdirs(restore);
    BackfillResult r = run(f.options().resume(true).build());
    assertTrue(r.verified(), r.lines().toString());
    assertFalse(
        admin.listSnapshots().stream()
            .anyMatch(
                s ->
                    s.getName().startsWith(TemporarySnapshots.PREFIX)
                        && s.getTableName().equals(f.target)),
        "no temporary snapshot of the target is left");
    assertFalse(fs.exists(restore), "the leaked restore dir is removed");
    Map<String, java.util.List<String>> source = TableContents.byNaturalKey(f.source, V1);
    assertEquals(source, TableContents.byNaturalKey(f.target, V2));
    assertTrue(
        source.values().stream()
            .flatMap(java.util.List::stream)
            .anyMatch(c -> c.contains(":early@0=")),
        "the time-0 cell is among those compared");
  }
}

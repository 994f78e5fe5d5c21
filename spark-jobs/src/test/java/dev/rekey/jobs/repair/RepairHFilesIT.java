package dev.rekey.jobs.repair;

import static dev.rekey.jobs.repair.RepairFixture.D;
import static dev.rekey.jobs.repair.RepairFixture.V;
import static dev.rekey.jobs.repair.RepairFixture.V1;
import static dev.rekey.jobs.repair.RepairFixture.V2;
import static dev.rekey.jobs.repair.RepairFixture.contents;
import static dev.rekey.jobs.repair.RepairFixture.opts;
import static dev.rekey.jobs.repair.RepairFixture.reading;
import static dev.rekey.jobs.repair.RepairFixture.repair;
import static dev.rekey.jobs.repair.RepairFixture.v2Key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.RekeyException;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.jobs.reconcile.SideSpec;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import dev.rekey.testing.VersionedTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * repair's HFile path (--max-put-cells lowered so that the size rule picks it): the rows written by
 * the backfill's HFile path, bulk-loaded and verified, then both tables compared by natural key,
 * every cell and version.
 */
@Tag("e2e")
class RepairHFilesIT {
  private static final KeyLayout BY_DEVICE = KeyLayout.load(Layouts.file("telemetry-by-device"));

  @TempDir Path dir;

  /**
   * Hour 0: rows deleted (markers: compacted first); hour 1: a value changed, a version dropped.
   */
  static void damage(TableName v2) throws Exception {
    try (Table t = RepairFixture.table(v2)) {
      RepairIT.deleteRows(t, 30, 31, 32, 33);
      RepairFixture.changeValue(t, 250);
      TelemetryReading r = reading(300);
      t.delete(new Delete(v2Key(r)).addColumn(D, V, r.ts()));
    }
  }

  @Test
  void manyCellsGoThroughTheBackfillsHFilesAndBothTablesEndEqual() throws Exception {
    TableName v1 = RepairFixture.v1();
    TableName v2 = RepairFixture.v2();
    damage(v2);
    // after the damage: markers newer than the old side's snapshot would be the application's
    // own deletes, kept
    String snap = RepairFixture.snapshot(v1);
    List<String> lines = new ArrayList<>();
    RepairResult r = repair(compactingRepair(snap, v2, 3), lines::add);
    assertEquals(0, r.exitCode(), r.console());
    assertEquals(RepairPath.Kind.HFILES, r.path().kind(), String.join("\n", lines));
    assertTrue(r.compacted(), "the deleted rows' markers were compacted away first");
    // reading 30 has 3 versions of v: 4 + 2 + 2 + 2 cells; the changed value; the dropped version
    assertEquals(10 + 1 + 1, r.cellsPut(), r.console());
    assertTrue(
        lines.stream().anyMatch(l -> l.startsWith("Verified ")),
        "the load was verified as a backfill's is: " + String.join("\n", lines));
    assertEquals(contents(v1, V1), contents(v2, V2));
    assertFalse(Files.exists(dir.resolve("staging").resolve("_manifest.json")), "ledger removed");
  }

  @Test
  void severalNewTablesAreEachComparedWithTheOldSideAndRepaired() throws Exception {
    TableName v1 = RepairFixture.v1();
    TableName v2 = RepairFixture.v2();
    List<Put> puts = new ArrayList<>();
    for (long i = 0; i < RepairFixture.GEN.rows(); i++) {
      TelemetryReading r = reading(i);
      puts.add(
          RepairFixture.put(BY_DEVICE.encode(Map.of("ts", r.ts(), "deviceId", r.deviceId())), i));
    }
    TableName history = VersionedTables.create("rp_hist", D, 3, BY_DEVICE.splitPoints(4), puts);
    try (Table t = RepairFixture.table(v2)) {
      RepairFixture.changeValue(t, 250); // hour 1 of telemetry_v2
    }
    TelemetryReading gone = reading(420);
    try (Table t = RepairFixture.table(history)) { // hour 2 of the history table: a version gone
      t.delete(
          new Delete(BY_DEVICE.encode(Map.of("ts", gone.ts(), "deviceId", gone.deviceId())))
              .addColumn(RepairFixture.D, RepairFixture.S, gone.ts()));
    }
    RepairResults all =
        new Repair(
                SharedSpark.session(),
                SharedHBase.conf(),
                RepairOptions.builder()
                    .old(RepairFixture.oldTable(v1))
                    .viaSnapshot(true)
                    .target(RepairFixture.newTable(v2))
                    .target(SideSpec.table("new", history.getNameAsString(), BY_DEVICE))
                    .from(RepairFixture.START)
                    .to(RepairFixture.START + 3 * RepairFixture.HOUR)
                    .bucket("1h")
                    .compactIfMasked(true)
                    .maxPutCells(0) // both through the HFile path
                    .staging(dir.resolve("staging").toString())
                    .out(dir)
                    .build())
            .executeAll(s -> {});
    assertEquals(0, all.exitCode(), all.console());
    assertEquals(2, all.tables().size());
    assertEquals(
        List.of(1), all.tables().get(0).buckets().stream().map(TimeBucketRepair::index).toList());
    assertEquals(
        List.of(2), all.tables().get(1).buckets().stream().map(TimeBucketRepair::index).toList());
    assertEquals(1, all.tables().get(0).cellsPut(), all.console());
    assertEquals(1, all.tables().get(1).cellsPut(), all.console());
    assertTrue(Files.exists(dir.resolve(v2.getNameAsString()).resolve(RepairReport.JSON)));
    assertTrue(Files.exists(dir.resolve(history.getNameAsString()).resolve(RepairReport.JSON)));
    assertEquals(contents(v1, V1), contents(v2, V2));
    assertEquals(contents(v1, V1), contents(history, BY_DEVICE));
  }

  @Test
  void aRunKilledDuringTheLoadResumesFromTheLedger() throws Exception {
    RepairFixture.Migration m = RepairFixture.changedValues(40, 250, 410, 530);
    TableName v1 = m.v1();
    String snap = m.snapshot();
    TableName v2 = m.v2();
    Path staging = dir.resolve("staging");
    RepairOptions.Builder o =
        opts(RepairFixture.oldSnapshot(snap), v2, dir).maxPutCells(0).staging(staging.toString());

    // dies after the bulk load, before the verification
    assertThrows(
        RepairFixture.Killed.class,
        () -> repair(o.build(), RepairFixture.killedAt(line -> line.startsWith("Loaded "))));
    assertTrue(Files.exists(staging.resolve("_manifest.json")), "the ledger is kept");

    RekeyException again = assertThrows(RekeyException.class, () -> repair(o.build()));
    assertTrue(again.getMessage().contains("add --resume"), again.getMessage());

    List<String> lines = new ArrayList<>();
    RepairResult r = repair(o.resume(true).build(), lines::add);
    assertEquals(0, r.exitCode(), r.console());
    assertTrue(
        lines.stream().anyMatch(l -> l.contains("resuming the HFile load")),
        String.join("\n", lines));
    assertEquals(0, r.cellsPut(), "the resumed run found the cells loaded: nothing written twice");
    assertEquals(contents(v1, V1), contents(v2, V2));
  }

  @Test
  void aRowDeletedAfterTheSnapshotStaysDeletedWhenItsRegionIsCompacted() throws Exception {
    TableName v1 = RepairFixture.v1();
    TableName v2 = RepairFixture.v2();
    try (Table t = RepairFixture.table(v2)) {
      RepairIT.deleteRows(t, 30, 31, 32, 33); // damage: markers the repair compacts away
    }
    String snap = RepairFixture.snapshot(v1);
    // the application deletes a row of the same salt bucket (so the same region, compacted with
    // 31's) after the snapshot: its marker goes with the compaction, its cells must stay deleted
    byte salt = v2Key(reading(31))[0];
    long gone = 34;
    while (v2Key(reading(gone))[0] != salt) {
      gone++;
    }
    // the marker's timestamp after the snapshot's creation time, as a delete made after it has
    long after = RepairFixture.snapshotTime(snap) + 1;
    try (Table t = RepairFixture.table(v2)) {
      t.delete(new Delete(v2Key(reading(gone)), after));
    }
    RepairResult r = repair(compactingRepair(snap, v2, 0), s -> {});
    assertEquals(RepairPath.Kind.HFILES, r.path().kind(), r.console());
    assertTrue(r.compacted(), r.console());
    try (Table t = RepairFixture.table(v2)) {
      assertFalse(
          t.exists(new org.apache.hadoop.hbase.client.Get(v2Key(reading(gone)))),
          "the row deleted after the snapshot was loaded back: " + r.console());
      for (long i = 30; i <= 33; i++) {
        assertTrue(
            t.exists(new org.apache.hadoop.hbase.client.Get(v2Key(reading(i)))), r.console());
      }
    }
    Map<String, List<String>> old = new java.util.HashMap<>(contents(v1, V1));
    Map<String, List<String>> neu = contents(v2, V2);
    assertEquals(old.size() - 1, neu.size(), "only the application's deleted row differs");
    old.keySet().retainAll(neu.keySet());
    assertEquals(old, neu);
  }

  /**
   * A repair of {@code table} against the old snapshot {@code snap} that compacts masking markers
   * away, on the HFile path above {@code maxPutCells} cells, staged under the test's dir.
   */
  private RepairOptions compactingRepair(String snap, TableName table, int maxPutCells) {
    return opts(RepairFixture.oldSnapshot(snap), table, dir)
        .maxPutCells(maxPutCells)
        .compactIfMasked(true)
        .staging(dir.resolve("staging").toString())
        .build();
  }
}

package dev.rekey.jobs.repair;

import static dev.rekey.jobs.repair.RepairFixture.D;
import static dev.rekey.jobs.repair.RepairFixture.V1;
import static dev.rekey.jobs.repair.RepairFixture.V2;
import static dev.rekey.jobs.repair.RepairFixture.contents;
import static dev.rekey.jobs.repair.RepairFixture.opts;
import static dev.rekey.jobs.repair.RepairFixture.reading;
import static dev.rekey.jobs.repair.RepairFixture.repair;
import static dev.rekey.jobs.repair.RepairFixture.v2Key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.testing.SharedHBase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * repair into a new table whose family keeps HBase's NEW_VERSION_BEHAVIOR (create-table's {@code
 * --family d:new_version_behavior=true}): the damage's delete markers hide only what was written
 * before them, so the repaired cells show without a major compaction — on the Put path and on the
 * HFile path (a bulk-loaded file takes a sequence id above the markers') — and a row the
 * application deleted after the snapshot stays deleted, where a re-put would now show. Each ends by
 * comparing both tables by natural key, every cell and version.
 */
@Tag("e2e")
class RepairNewVersionBehaviorIT {
  @TempDir Path dir;

  /** {@link RepairFixture#v2()} with its family switched to NEW_VERSION_BEHAVIOR. */
  private static TableName v2WrittenAfter() throws Exception {
    TableName v2 = RepairFixture.v2();
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.modifyColumnFamily(
          v2,
          ColumnFamilyDescriptorBuilder.newBuilder(admin.getDescriptor(v2).getColumnFamily(D))
              .setNewVersionBehavior(true)
              .build());
    }
    return v2;
  }

  @Test
  void deletedRowsComeBackThroughPutsWithoutACompaction() throws Exception {
    TableName v1 = RepairFixture.v1();
    TableName v2 = v2WrittenAfter();
    RepairHFilesIT.damage(v2);
    assertFalse(contents(v1, V1).equals(contents(v2, V2)));
    List<String> lines = new ArrayList<>();
    RepairResult r =
        repair(opts(RepairFixture.oldTable(v1), v2, dir).viaSnapshot(true).build(), lines::add);
    assertEquals(0, r.exitCode(), r.console());
    assertEquals(RepairPath.Kind.PUTS, r.path().kind(), r.console());
    assertFalse(r.compacted(), "no compaction asked for, none needed: " + r.console());
    // reading 30 has 3 versions of v: 4 + 2 + 2 + 2 cells; the changed value; the dropped version
    assertEquals(10 + 1 + 1, r.cellsPut(), r.console());
    assertTrue(
        lines.stream().anyMatch(l -> l.contains("keeps NEW_VERSION_BEHAVIOR in d")),
        String.join("\n", lines));
    assertEquals(contents(v1, V1), contents(v2, V2));
  }

  @Test
  void theHFilePathShowsOverOldMarkersAndARowDeletedAfterTheSnapshotStaysDeleted()
      throws Exception {
    TableName v1 = RepairFixture.v1();
    TableName v2 = v2WrittenAfter();
    RepairHFilesIT.damage(v2);
    String snap = RepairFixture.snapshot(v1);
    // the application deletes a row after the snapshot: with NEW_VERSION_BEHAVIOR a cell written
    // now would show over its marker, so the repair must leave it out
    long gone = 40;
    long after = RepairFixture.snapshotTime(snap) + 1;
    try (Table t = RepairFixture.table(v2)) {
      t.delete(new Delete(v2Key(reading(gone)), after));
    }
    RepairResult r =
        repair(
            opts(RepairFixture.oldSnapshot(snap), v2, dir)
                .maxPutCells(0)
                .staging(dir.resolve("staging").toString())
                .build(),
            s -> {});
    assertEquals(RepairPath.Kind.HFILES, r.path().kind(), r.console());
    assertFalse(r.compacted(), r.console());
    try (Table t = RepairFixture.table(v2)) {
      assertFalse(
          t.exists(new Get(v2Key(reading(gone)))),
          "the row deleted after the snapshot was loaded back: " + r.console());
      for (long i = 30; i <= 33; i++) {
        assertTrue(t.exists(new Get(v2Key(reading(i)))), r.console());
      }
    }
    Map<String, List<String>> old = new HashMap<>(contents(v1, V1));
    Map<String, List<String>> neu = contents(v2, V2);
    assertEquals(old.size() - 1, neu.size(), "only the application's deleted row differs");
    old.keySet().retainAll(neu.keySet());
    assertEquals(old, neu);
  }
}

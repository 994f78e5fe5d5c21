package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.common.Versions;
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.jobs.backfill.staging.RegionEntry;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import dev.rekey.testing.TableContents;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every version of every cell: a source family keeping 3 versions, where every third reading was
 * corrected twice (two more versions of {@code v}, newer than the first), backfilled into targets
 * keeping 3, 1 and 2 versions. Each test ends by comparing both tables by natural key, every cell,
 * every version, timestamps included.
 */
@Tag("e2e")
class BackfillVersionsIT {
  private static final int ROWS = 300;
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");

  private static BackfillResult run(BackfillOptions o) throws Exception {
    return new Backfill(SharedSpark.session(), SharedHBase.conf(), o).execute();
  }

  /** Source with 3 versions of v on every third row; returns the extra (older) versions written. */
  private static BackfillFixture fixture(String name, String targetFamily) throws Exception {
    BackfillFixture f = new BackfillFixture(name, ROWS, 6, 3, targetFamily);
    try (Table t = SharedHBase.connection().getTable(f.source)) {
      List<Put> puts = new ArrayList<>();
      for (long i = 0; i < ROWS; i += 3) {
        TelemetryReading r = f.gen.reading(i);
        for (int k = 1; k <= 2; k++) { // corrections: newer timestamps, new values
          puts.add(
              new Put(LegacyTelemetryTable.rowKey(r))
                  .addColumn(
                      LegacyTelemetryTable.FAMILY,
                      LegacyTelemetryTable.VALUE,
                      r.ts() + k,
                      Bytes.toBytes(r.value() + 1000L * k)));
        }
      }
      t.put(puts);
    }
    f.snapshot();
    return f;
  }

  private static final int CORRECTED_ROWS = (ROWS + 2) / 3;

  /** The source's content keeping at most {@code n} newest versions per column. */
  private static Map<String, List<String>> newest(Map<String, List<String>> contents, int n) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    contents.forEach(
        (key, cells) -> {
          List<String> kept = new ArrayList<>();
          String column = null;
          int run = 0;
          for (String c : cells) { // family:qualifier@ts=value, newest first per column
            String col = c.substring(0, c.indexOf('@'));
            run = col.equals(column) ? run + 1 : 1;
            column = col;
            if (run <= n) {
              kept.add(c);
            }
          }
          out.put(key, kept);
        });
    return out;
  }

  private static Map<String, List<String>> source;
  private static BackfillFixture keepsThree;

  @BeforeAll
  static void sourceHoldsThreeVersions() throws Exception {
    keepsThree = fixture("bfv_three", "d:versions=3,bloom=row");
    source = TableContents.byNaturalKey(keepsThree.source, V1);
    assertEquals(ROWS, source.size());
    assertEquals(
        2L * ROWS + 2L * CORRECTED_ROWS,
        TableContents.cells(source),
        "the fixture wrote every version");
  }

  @Test
  void everyVersionArrivesWithItsTimestampWhenTheTargetKeepsThem() throws Exception {
    BackfillResult r = run(keepsThree.options().build());
    assertTrue(r.verified(), r.lines().toString());
    assertEquals(0, r.olderVersionsNotCopied());
    assertEquals(
        2L * ROWS + 2L * CORRECTED_ROWS, r.regions().stream().mapToLong(RegionEntry::cells).sum());
    assertEquals(source, TableContents.byNaturalKey(keepsThree.target, V2));
  }

  @Test
  void aTargetKeepingOneVersionGetsTheNewestAndTheRestAreCounted() throws Exception {
    BackfillFixture f = fixture("bfv_one", "d");
    BackfillResult r = run(f.options().build());
    assertTrue(r.verified(), r.lines().toString());
    assertEquals(2L * CORRECTED_ROWS, r.olderVersionsNotCopied());
    assertTrue(
        r.lines().stream()
            .anyMatch(
                l ->
                    l.contains(
                        String.format("%,d older cell versions not copied", 2L * CORRECTED_ROWS))),
        r.lines().toString());
    assertNewestCopied(f, 1);
  }

  @Test
  void versionsTwoCopiesTheTwoNewestOfEachColumn() throws Exception {
    BackfillFixture f = fixture("bfv_two", "d:versions=3");
    BackfillResult r = run(f.options().versions(new Versions(2)).build());
    assertTrue(r.verified(), r.lines().toString());
    assertNewestCopied(f, 2);
  }

  @Test
  void aLostOlderVersionFailsVerification() throws Exception {
    BackfillFixture f = fixture("bfv_lost", "d:versions=3");
    assertFalse(run(f.options().noLoad(true).build()).loaded());
    TelemetryReading corrected = f.gen.reading(3);
    byte[] key = V2.encode(Map.of("ts", corrected.ts(), "deviceId", corrected.deviceId()));
    try (Table t = SharedHBase.connection().getTable(f.target)) {
      // a marker for exactly the oldest version: it masks that one loaded cell and nothing else in
      // the row
      t.delete(
          new Delete(key)
              .addColumn(LegacyTelemetryTable.FAMILY, LegacyTelemetryTable.VALUE, corrected.ts()));
    }
    // the loaded file is in the store (a files check passes); the cell check sees the masked
    // version
    BackfillResult r = run(f.options().resume(true).verifyRows(true).build());
    assertEquals(ExitCodes.MISMATCH, r.exitCode(), r.console());
    assertTrue(
        r.console()
            .contains("cells written are missing from the table in region(s) [" + key[0] + " "),
        r.console());
  }

  @Test
  void aTargetFamilyWhoseTtlIsShorterThanTheDataIsRefusedBeforeAnythingIsLoaded() throws Exception {
    BackfillFixture f = new BackfillFixture("bfv_ttl", 100, 4, 1, "d:ttl=3600");
    f.snapshot();
    RekeyException e = assertThrows(RekeyException.class, () -> run(f.options().build()));
    assertEquals(
        "Cannot backfill "
            + f.target
            + ": 200 cells are older than their target family's TTL (family d: TTL "
            + "3600 s) and would expire as soon as they are loaded. Nothing was loaded. Raise the TTL (`alter '"
            + f.target
            + "', {NAME => 'FAMILY', TTL => SECONDS}`), or copy only the cells it keeps with --from.",
        e.getMessage());
    assertEquals(0, TableContents.byNaturalKey(f.target, V2).size());
  }

  /** The target holds the {@code versions} newest versions of each of the source's columns. */
  private static void assertNewestCopied(BackfillFixture f, int versions) throws Exception {
    assertEquals(
        newest(TableContents.byNaturalKey(f.source, V1), versions),
        TableContents.byNaturalKey(f.target, V2));
  }
}

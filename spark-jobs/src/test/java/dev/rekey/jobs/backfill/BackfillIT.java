package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeWindow;
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.jobs.backfill.staging.RegionEntry;
import dev.rekey.jobs.backfill.staging.RegionState;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The backfill action in-process on the shared SparkSession against the shared embedded HBase
 * server.
 */
@Tag("e2e")
class BackfillIT {
  private static final int ROWS = 2_000;
  private static final int DEVICES = 20;

  private static BackfillResult run(BackfillOptions o) throws Exception {
    return new Backfill(SharedSpark.session(), SharedHBase.conf(), o).execute();
  }

  @Test
  void everyCellArrivesWithItsTimestampAndValueAndARerunChangesNothing() throws Exception {
    BackfillFixture f = new BackfillFixture("bf_all", ROWS, DEVICES);
    f.snapshot();
    BackfillResult r = run(f.options().splitsPerRegion(2).build());
    assertEquals(new Accounting(ROWS, ROWS, 0, 0), r.accounting());
    assertTrue(r.verified() && r.loaded());
    assertEquals(16, r.regions().size());
    long sum = 0;
    for (RegionEntry e : r.regions()) {
      assertTrue(e.rows() > 0, "salted keys reach every region: " + e);
      assertEquals(RegionState.VERIFIED, e.state());
      sum += e.rows();
    }
    assertEquals(ROWS, sum);
    assertTrue(r.skew().ratio() < 2.0, r.skew().line());
    assertTrue(Files.isRegularFile(f.staging.resolve("_manifest.json")));
    assertTrue(Files.readString(f.staging.resolve("_manifest.json")).contains("\"rowsPerHour\""));
    assertTargetMatchesGenerator(f);

    // loaded a second time on purpose (a plain rerun is refused: BackfillRepeatIT): identical
    // cells with identical timestamps, so every read is unchanged
    BackfillResult again = run(f.options().loadAgain(true).build());
    assertEquals(r.accounting(), again.accounting());
    assertTrue(again.verified());
    assertTargetMatchesGenerator(f);
  }

  @Test
  void aCollisionFailsWithExamplesAndLoadsNothing() throws Exception {
    BackfillFixture f = new BackfillFixture("bf_coll", 300, 5);
    f.snapshot();
    // device only: every reading of a device maps to one key
    KeyLayout deviceOnly =
        KeyLayout.parse(
            "name: device-only\nprefix:\n  kind: none\nfields:\n"
                + "  - name: deviceId\n    type: bytes\n    length: 16\n",
            "device-only");
    RekeyException e =
        assertThrows(RekeyException.class, () -> run(f.options().targetLayout(deviceOnly).build()));
    assertTrue(
        e.getMessage()
            .contains("5 target row key(s) would each come from more than one source row"),
        e.getMessage());
    assertTrue(
        e.getMessage().contains("Nothing was loaded") && e.getMessage().contains("<- source keys"),
        e.getMessage());
    assertEquals(0, countRows(table(f), new byte[0], new byte[0]));
  }

  @Test
  void undecodableKeysAreQuarantinedCountedAndFailAboveTheThreshold() throws Exception {
    BackfillFixture f = new BackfillFixture("bf_quar", 500, 5);
    try (Table src = SharedHBase.connection().getTable(f.source)) {
      for (String bad : List.of("short", "also-not-a-telemetry-key!!", "x")) {
        src.put(
            new Put(Bytes.toBytes(bad))
                .addColumn(
                    LegacyTelemetryTable.FAMILY,
                    LegacyTelemetryTable.VALUE,
                    5L,
                    Bytes.toBytes(1L)));
      }
    }
    f.snapshot();
    RekeyException e = assertThrows(RekeyException.class, () -> run(f.options().build()));
    assertTrue(
        e.getMessage()
            .contains(
                "3 of 503 source row keys in snapshot "
                    + f.snapshot
                    + " do not decode with source layout telemetry-v1"),
        e.getMessage());
    assertTrue(
        e.getMessage().contains("--max-quarantined 3")
            && e.getMessage().contains("Nothing was loaded"),
        e.getMessage());
    assertEquals(0, countRows(table(f), new byte[0], new byte[0]));

    BackfillResult r = run(f.options().maxQuarantined(3).build());
    assertEquals(new Accounting(503, 500, 3, 0), r.accounting());
    assertTrue(r.verified());
    String quarantined;
    try (Stream<java.nio.file.Path> files = Files.list(f.staging.resolve("quarantine"))) {
      quarantined =
          files
              .filter(p -> p.getFileName().toString().endsWith(".jsonl"))
              .map(
                  p -> {
                    try {
                      return Files.readString(p);
                    } catch (java.io.IOException ex) {
                      throw new java.io.UncheckedIOException(ex);
                    }
                  })
              .reduce("", String::concat);
    }
    assertEquals(3, quarantined.lines().count(), quarantined);
    assertTrue(
        quarantined.contains(
            "\"keyHex\":\"" + dev.rekey.rowkey.Hex.of(Bytes.toBytes("short")) + "\""),
        quarantined);
    assertTrue(quarantined.contains("\"reason\""), quarantined);
  }

  @Test
  void aRegionSplitBetweenWriteAndLoadLosesNothing() throws Exception {
    BackfillFixture f = new BackfillFixture("bf_split", ROWS, DEVICES);
    f.snapshot();
    BackfillResult written = run(f.options().noLoad(true).build());
    assertFalse(written.loaded());
    assertEquals(0, countRows(table(f), new byte[0], new byte[0]));
    var admin = SharedHBase.connection().getAdmin();
    // split region 3 (salt byte 0x03) in the middle of its key space, and wait for the daughters to
    // be online
    byte[] region3 =
        admin.getRegions(f.target).stream()
            .filter(r -> Bytes.equals(r.getStartKey(), new byte[] {3}))
            .findFirst()
            .orElseThrow()
            .getRegionName();
    admin
        .splitRegionAsync(region3, new byte[] {3, (byte) 0x80})
        .get(120, java.util.concurrent.TimeUnit.SECONDS);
    dev.rekey.common.Poll.until(
        () -> admin.getRegions(f.target).size() == 17 && admin.isTableAvailable(f.target),
        java.time.Duration.ofSeconds(120),
        java.time.Duration.ofMillis(200),
        () -> new IllegalStateException("the daughters of region 3 were not online within 120 s"));
    BackfillResult loaded = run(f.options().resume(true).build());
    assertTrue(loaded.verified());
    assertEquals(16, loaded.regions().size(), "the manifest keeps the boundaries of write time");
    assertTargetMatchesGenerator(f);
  }

  @Test
  void rowsWrittenMeanwhileDoNotFailVerificationButALostRowDoes() throws Exception {
    KeyLayout v2 = Layouts.shipped("telemetry-v2");
    // dual writes: a reading the snapshot does not have lands in the new table between write and
    // load
    BackfillFixture f = new BackfillFixture("bf_dual", 500, 5);
    f.snapshot();
    assertFalse(run(f.options().noLoad(true).build()).loaded());
    byte[] fresh =
        v2.encode(
            Map.of(
                "ts",
                dev.rekey.demo.TelemetryGenerator.DEFAULT_START + 1,
                "deviceId",
                new byte[16]));
    try (Table t = table(f)) {
      t.put(new Put(fresh).addColumn(Bytes.toBytes("d"), Bytes.toBytes("v"), Bytes.toBytes(1L)));
    }
    BackfillResult r = run(f.options().resume(true).verifyRows(true).build());
    assertTrue(r.verified(), "rows others wrote are not a loss");
    assertEquals(501, countRows(table(f), new byte[0], new byte[0]));

    // a lost row is caught even when a row written meanwhile in the same region keeps the count
    // equal
    BackfillFixture g = new BackfillFixture("bf_lost", 500, 5);
    g.snapshot();
    assertFalse(run(g.options().noLoad(true).build()).loaded());
    TelemetryReading gone = g.gen.reading(7);
    byte[] lost = v2.encode(Map.of("ts", gone.ts(), "deviceId", gone.deviceId()));
    byte[] other = null;
    for (long ts = 1; other == null || other[0] != lost[0]; ts++) {
      other = v2.encode(Map.of("ts", ts, "deviceId", new byte[16]));
    }
    try (Table t = table(g)) {
      t.delete(
          new org.apache.hadoop.hbase.client.Delete(
              lost)); // hides the loaded cells (older timestamps)
      t.put(new Put(other).addColumn(Bytes.toBytes("d"), Bytes.toBytes("v"), Bytes.toBytes(1L)));
    }
    BackfillResult lostRow = run(g.options().resume(true).verifyRows(true).build());
    assertEquals(dev.rekey.common.ExitCodes.MISMATCH, lostRow.exitCode(), lostRow.console());
    assertTrue(
        lostRow.console().contains("missing from the table in region(s) [" + lost[0] + " "),
        lostRow.console());
  }

  @Test
  void aTimeRangeAndFamilyListCopyOnlyThoseCells() throws Exception {
    BackfillFixture f = new BackfillFixture("bf_range", 1_000, 10);
    f.snapshot();
    // the first 6 hours of the generated day: readings 0..249 (1,000 readings spread over 24 h)
    long from = dev.rekey.demo.TelemetryGenerator.DEFAULT_START;
    long to = from + 6 * 3_600_000L;
    long expected = 0;
    for (long i = 0; i < f.gen.rows(); i++) {
      long ts = f.gen.reading(i).ts();
      if (ts >= from && ts < to) {
        expected++;
      }
    }
    BackfillResult r =
        run(f.options().cellTime(new TimeWindow(from, to)).families(List.of("d")).build());
    assertEquals(new Accounting(expected, expected, 0, 0), r.accounting());
    assertEquals(expected, countRows(table(f), new byte[0], new byte[0]));
    try (Table t = table(f);
        ResultScanner sc = t.getScanner(new Scan())) {
      for (Result row : sc) {
        for (Cell c : row.rawCells()) {
          assertTrue(
              c.getTimestamp() >= from && c.getTimestamp() < to, "cell outside the range: " + c);
        }
      }
    }
  }

  @Test
  void badInputNamesTheThingAndTheNextStep() throws Exception {
    BackfillFixture f = new BackfillFixture("bf_bad", 200, 4);
    f.snapshot();
    RekeyException e =
        assertThrows(
            RekeyException.class,
            () -> run(f.options().sourceSnapshot("no_such_snapshot").build()));
    assertTrue(
        e.getMessage().contains("snapshot no_such_snapshot does not exist (list snapshots with"),
        e.getMessage());
    e =
        assertThrows(
            RekeyException.class, () -> run(f.options().targetTable("no_such_table_bf").build()));
    assertTrue(
        e.getMessage()
            .contains(
                "target table no_such_table_bf does not exist (create it with `rekey create-table"),
        e.getMessage());
    e = assertThrows(RekeyException.class, () -> run(f.options().families(List.of("zz")).build()));
    assertTrue(
        e.getMessage().contains("family 'zz' (--families) is not in target table"), e.getMessage());
    assertEquals(2, e.exitCode());
    // events-v2 keys are md5 prefix | user id string | reversed ts: telemetry keys do not decode
    // with it
    e =
        assertThrows(
            RekeyException.class,
            () ->
                run(
                    f.options()
                        .sourceLayout(Layouts.shipped("events-v2"))
                        .targetLayout(Layouts.shipped("events-v2"))
                        .build()));
    assertTrue(
        e.getMessage().contains("200 of 200 source row keys")
            && e.getMessage().contains("Check --source-layout"),
        e.getMessage());
    // a target layout whose fields the source does not have is refused before anything runs
    e =
        assertThrows(
            RekeyException.class,
            () -> f.options().targetLayout(Layouts.shipped("events-v2")).build());
    assertTrue(e.getMessage().contains("needs field 'userId'"), e.getMessage());
    assertEquals(0, countRows(table(f), new byte[0], new byte[0]));
  }

  /** Rows in [start, stop) of the table, one key each (FirstKeyOnlyFilter). */
  static long countRows(Table t, byte[] start, byte[] stop) throws java.io.IOException {
    Scan s =
        new Scan()
            .withStartRow(start)
            .withStopRow(stop)
            .setFilter(new org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter())
            .setCacheBlocks(false)
            .setCaching(5000);
    long n = 0;
    try (ResultScanner sc = t.getScanner(s)) {
      for (Result ignored : sc) {
        n++;
      }
    }
    return n;
  }

  private static Table table(BackfillFixture f) throws Exception {
    return SharedHBase.connection().getTable(f.target);
  }

  /**
   * Every generated reading under its new key, both cells with the event time as timestamp; nothing
   * else.
   */
  static void assertTargetMatchesGenerator(BackfillFixture f) throws Exception {
    KeyLayout v2 = Layouts.shipped("telemetry-v2");
    Map<String, TelemetryReading> expected = new HashMap<>();
    for (long i = 0; i < f.gen.rows(); i++) {
      TelemetryReading r = f.gen.reading(i);
      expected.put(
          Bytes.toStringBinary(v2.encode(Map.of("ts", r.ts(), "deviceId", r.deviceId()))), r);
    }
    long rows = 0;
    try (Table t = table(f);
        ResultScanner sc = t.getScanner(new Scan().readAllVersions())) {
      for (Result row : sc) {
        rows++;
        TelemetryReading r = expected.get(Bytes.toStringBinary(row.getRow()));
        assertTrue(r != null, "unexpected row " + Bytes.toStringBinary(row.getRow()));
        assertEquals(2, row.rawCells().length, "two cells, one version each: " + row);
        for (Cell c : row.rawCells()) {
          assertEquals(r.ts(), c.getTimestamp());
          if (CellUtil.matchingQualifier(c, LegacyTelemetryTable.VALUE)) {
            assertEquals(r.value(), Bytes.toLong(CellUtil.cloneValue(c)));
          } else {
            assertEquals(r.status(), Bytes.toString(CellUtil.cloneValue(c)));
          }
        }
      }
      // a Get by the new key
      TelemetryReading some = f.gen.reading(f.gen.rows() / 2);
      Result g = t.get(new Get(v2.encode(Map.of("ts", some.ts(), "deviceId", some.deviceId()))));
      assertArrayEquals(
          Bytes.toBytes(some.value()),
          g.getValue(LegacyTelemetryTable.FAMILY, LegacyTelemetryTable.VALUE));
    }
    assertEquals(f.gen.rows(), rows);
  }
}

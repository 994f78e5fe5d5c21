package dev.rekey.jobs.reconcile;

import static dev.rekey.jobs.reconcile.TelemetryFixture.HOUR;
import static dev.rekey.jobs.reconcile.TelemetryFixture.START;
import static dev.rekey.jobs.reconcile.TelemetryFixture.V1;
import static dev.rekey.jobs.reconcile.TelemetryFixture.V2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rekey.common.RekeyException;
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.jobs.compare.Difference;
import dev.rekey.read.RegionScan;
import dev.rekey.rowkey.Hex;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * reconcile end to end on the embedded HBase: the same readings in a 1-region v1 table (ts |
 * deviceId) and a 16-region v2 table (salt | ts | deviceId), then v2 tables with one planted fault
 * per hour.
 */
@Tag("e2e")
class ReconcileIT {
  static List<TelemetryReading> readings;
  static TableName v1;
  static TableName v2;
  static String v1Snapshot;

  /**
   * v2 with faults: hour 0 lost a row, hour 1 has an extra row, hour 2 a changed value, hour 3 a
   * changed cell timestamp, hour 4 is missing entirely, hour 5 is intact.
   */
  static TableName v2Faulty;

  static TelemetryReading lost;
  static TelemetryReading extra;
  static TelemetryReading changedValue;
  static TelemetryReading changedTs;

  @BeforeAll
  static void tables() throws Exception {
    readings = TelemetryFixture.readings();
    v1 = TelemetryFixture.v1Table(readings);
    v2 = TelemetryFixture.v2Table(TelemetryFixture.v2Puts(readings));
    v1Snapshot = v1.getNameAsString() + "_snap";
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.flush(v1);
      admin.snapshot(v1Snapshot, v1);
    }

    lost = readings.get(5); // hour 0
    changedValue = readings.get(450); // hour 2
    changedTs = readings.get(650); // hour 3
    extra =
        new TelemetryReading(
            START + HOUR + 1234, Bytes.toBytes("0123456789abcdef"), 7, "ok"); // hour 1
    List<Put> puts = new ArrayList<>();
    for (TelemetryReading r : readings) {
      if (r == lost || (r.ts() >= START + 4 * HOUR && r.ts() < START + 5 * HOUR)) {
        continue;
      }
      if (r == changedValue) {
        puts.add(
            TelemetryFixture.v2Put(
                new TelemetryReading(r.ts(), r.deviceId(), r.value() + 1, r.status())));
      } else if (r == changedTs) {
        puts.add(TelemetryFixture.v2Put(r, r.ts() + 1, r.value()));
      } else {
        puts.add(TelemetryFixture.v2Put(r));
      }
    }
    puts.add(TelemetryFixture.v2Put(extra));
    v2Faulty = TelemetryFixture.v2Table(puts);
  }

  static ReconcileOptions.Builder opts(SideSpec old, TableName neu) {
    return ReconcileOptions.builder()
        .old(old)
        .neu(SideSpec.table("new", neu.getNameAsString(), V2))
        .from(START)
        .to(START + 6 * HOUR)
        .bucket("1h");
  }

  static ReconcileResult run(ReconcileOptions o) {
    return new Reconcile(SharedSpark.session(), SharedHBase.conf(), o).execute();
  }

  static SideSpec oldTable() {
    return SideSpec.table("old", v1.getNameAsString(), V1);
  }

  @Test
  void identicalDataInTwoLayoutsMatchesWithEqualDigestsAndEmptyBucketsListed() {
    ReconcileResult r = run(opts(oldTable(), v2).to(START + 8 * HOUR).digest(true).build());
    assertTrue(r.matches(), () -> r.buckets().toString());
    assertEquals(0, r.exitCode());
    assertEquals(8, r.buckets().size());
    assertEquals(1, r.old().regions());
    assertEquals(16, r.neu().regions());
    for (int h = 0; h < 6; h++) {
      TimeBucketComparison b = r.bucket(h);
      assertEquals(200, b.old().rows(), "hour " + h);
      assertEquals(200, b.neu().rows());
      assertEquals(400, b.neu().cells());
      assertEquals(b.old().digest(), b.neu().digest());
      assertNotEquals(Digest128.ZERO, b.old().digest());
      assertEquals("ok", b.status());
    }
    assertEquals("empty", r.bucket(6).status());
    assertEquals("empty", r.bucket(7).status());
    assertEquals(2, r.emptyBuckets());
    assertEquals(1_200, r.old().read());
    assertEquals(1_200, r.neu().inRange());
    assertTrue(r.drills().isEmpty());
  }

  @Test
  void snapshotAgainstTableAndCellTimeAndRangeFiltering() {
    // old side from the snapshot's files, time from cell timestamps, and a range that cuts off the
    // first hour
    ReconcileResult r =
        run(
            opts(SideSpec.snapshot("old", v1Snapshot, V1), v2)
                .from(START + HOUR)
                .time("cell")
                .digest(true)
                .build());
    assertTrue(r.matches(), () -> r.buckets().toString());
    assertEquals(5, r.buckets().size());
    assertEquals(1_000, r.old().inRange());
    assertEquals(1_000, r.neu().inRange());
    // cell time: cells before --from are not read at all
    assertEquals(0, r.old().outsideRange());
    assertEquals("every key, window as a cell time range (--time cell)", r.old().pruning());
    // key time, and ts leads both keys (after v2's salt byte): only the window's key ranges are
    // read
    ReconcileResult byKey = run(opts(oldTable(), v2).from(START + HOUR).build());
    assertTrue(byKey.matches(), () -> byKey.buckets().toString());
    assertEquals("read 1,000 = 1,000 in range + 0 outside range", byKey.old().accounting());
    assertTrue(
        byKey.old().pruning().startsWith("1 key range: time field ts leads the key"),
        byKey.old().pruning());
    assertTrue(
        byKey.neu().pruning().startsWith("16 key ranges: time field ts leads the key"),
        byKey.neu().pruning());
    assertEquals(16, byKey.neu().regionScans().size());
    for (RegionScan s : byKey.neu().regionScans()) {
      assertEquals(1, s.ranges().size(), "one range per salt bucket, one bucket per region");
    }
    assertEquals(
        1_000, byKey.neu().regionScans().stream().mapToLong(RegionScan::rowsScanned).sum());
    assertEquals(1_000, byKey.old().regionScans().get(0).rowsScanned());
  }

  @Test
  void eachFaultIsCaughtInItsBucketWithItsSample() {
    ReconcileResult r = run(opts(oldTable(), v2Faulty).digest(true).samples(5).build());
    assertEquals(3, r.exitCode());
    assertEquals(5, r.mismatchedBuckets());
    assertTrue(r.bucket(5).matches());

    TimeBucketDrill h0 = r.drill(0);
    assertEquals(-1, r.bucket(0).difference());
    assertEquals(1, h0.missingInNew());
    assertEquals(0, h0.extraInNew() + h0.contentDiffers());
    Sample s0 = h0.samples().get(0);
    assertEquals(Difference.MISSING_IN_NEW, s0.kind());
    assertEquals(Hex.of(lost.deviceId()), s0.key().get("deviceId"));
    assertEquals(Long.toString(lost.ts()), s0.key().get("ts"));
    assertEquals(Hex.of(LegacyTelemetryTable.rowKey(lost)), s0.oldRowKey());
    assertNull(s0.newRowKey());

    TimeBucketDrill h1 = r.drill(1);
    assertEquals(1, r.bucket(1).difference());
    assertEquals(1, h1.extraInNew());
    Sample s1 = h1.samples().get(0);
    assertEquals(Difference.EXTRA_IN_NEW, s1.kind());
    assertEquals(Hex.of(TelemetryFixture.v2Key(extra)), s1.newRowKey());
    assertEquals(Hex.of(extra.deviceId()), s1.key().get("deviceId"));

    for (int h : new int[] {2, 3}) {
      TelemetryReading want = h == 2 ? changedValue : changedTs;
      TimeBucketComparison b = r.bucket(h);
      assertTrue(b.countsMatch(), "hour " + h + ": same rows and cells");
      assertFalse(b.digestMatches());
      TimeBucketDrill d = r.drill(h);
      assertEquals(1, d.contentDiffers());
      Sample s = d.samples().get(0);
      assertEquals(Difference.CONTENT_DIFFERS, s.kind());
      assertEquals(Long.toString(want.ts()), s.key().get("ts"));
      assertEquals(Hex.of(LegacyTelemetryTable.rowKey(want)), s.oldRowKey());
      assertEquals(Hex.of(TelemetryFixture.v2Key(want)), s.newRowKey());
      // the sample names the differing cell on each side
      String oldCell = "d:v@" + want.ts() + "=" + Hex.of(Bytes.toBytes(want.value()));
      String newCell =
          h == 2
              ? "d:v@" + want.ts() + "=" + Hex.of(Bytes.toBytes(want.value() + 1))
              : "d:v@" + (want.ts() + 1) + "=" + Hex.of(Bytes.toBytes(want.value()));
      assertEquals(List.of("- " + oldCell, "+ " + newCell), s.cellDiffs());
    }
    assertEquals(List.of(), s0.cellDiffs());

    TimeBucketDrill h4 = r.drill(4);
    assertEquals(0, r.bucket(4).neu().rows());
    assertEquals(-200, r.bucket(4).difference());
    assertEquals(200, h4.missingInNew());
    assertEquals(5, h4.samples().size(), "--samples caps the samples");
    assertTrue(h4.samples().stream().allMatch(s -> s.kind() == Difference.MISSING_IN_NEW));
  }

  @Test
  void liveTablesReadViaSnapshotsFindTheSameFaultsAndLeaveNoSnapshot() throws Exception {
    ReconcileResult live = run(opts(oldTable(), v2Faulty).digest(true).build());
    ReconcileResult via = run(opts(oldTable(), v2Faulty).digest(true).viaSnapshot(true).build());
    assertEquals(3, via.exitCode());
    assertEquals(live.buckets(), via.buckets());
    assertEquals(live.drill(0).samples(), via.drill(0).samples());
    assertEquals(live.drill(4).missingInNew(), via.drill(4).missingInNew());
    assertTrue(
        via.old()
            .source()
            .startsWith("table " + v1.getNameAsString() + " via snapshot rekey_reconcile_"),
        via.old().source());
    assertTrue(
        via.neu().source().startsWith("table " + v2Faulty.getNameAsString() + " via snapshot "));
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      assertTrue(
          admin.listSnapshots().stream().noneMatch(d -> d.getName().startsWith("rekey_reconcile_")),
          "the run's snapshots are deleted");
      // a side given as a snapshot is read as it is: only the live side gets a snapshot of its own
      ReconcileResult mixed =
          run(opts(SideSpec.snapshot("old", v1Snapshot, V1), v2).viaSnapshot(true).build());
      assertTrue(mixed.matches(), () -> mixed.buckets().toString());
      assertEquals("snapshot " + v1Snapshot, mixed.old().source());
      RekeyException missing =
          assertThrows(
              RekeyException.class,
              () ->
                  run(
                      opts(oldTable(), TableName.valueOf("no_such_table"))
                          .viaSnapshot(true)
                          .build()));
      assertTrue(
          missing.getMessage().contains("Cannot snapshot table no_such_table: it does not exist"),
          missing.getMessage());
      assertTrue(
          admin.listSnapshots().stream().noneMatch(d -> d.getName().startsWith("rekey_reconcile_")),
          "the old side's snapshot is deleted when the new side's cannot be taken");
    }
  }

  @Test
  void aCountsRunReadsKeysOnlyButItsDrillDownReadsWholeRows() {
    ReconcileResult r = run(opts(oldTable(), v2Faulty).samples(5).build());
    assertEquals(3, r.exitCode());
    assertEquals(
        3, r.mismatchedBuckets(), "hours 0, 1 and 4 differ in rows; 2 and 3 only in content");
    Sample s0 = r.drill(0).samples().get(0);
    assertEquals(Difference.MISSING_IN_NEW, s0.kind());
    assertEquals(Hex.of(LegacyTelemetryTable.rowKey(lost)), s0.oldRowKey());
    assertEquals(200, r.drill(4).missingInNew());
    assertEquals(
        r.bucket(0).old().cells(),
        2 * r.bucket(0).old().rows(),
        "cells are counted from key-only reads");
  }

  @Test
  void equalCountsWithDifferentContentAreCaughtByDigestOnly() {
    ReconcileResult counts = run(opts(oldTable(), v2Faulty).build());
    assertTrue(counts.bucket(2).matches(), "counts only: a changed value is invisible");
    assertTrue(counts.bucket(3).matches(), "counts only: a changed timestamp is invisible");
    assertEquals("-", counts.bucket(2).digestOk());
    assertFalse(counts.bucket(0).matches());
    assertFalse(counts.bucket(4).matches());
    assertEquals(3, counts.mismatchedBuckets());
    assertFalse(counts.bucket(2).digestCompared());
  }

  @Test
  void badInputFailsWithClearErrors() {
    RekeyException e =
        assertThrows(
            RekeyException.class,
            () -> run(opts(SideSpec.table("old", v1.getNameAsString(), V2), v2).build()));
    assertTrue(
        e.getMessage()
            .startsWith(
                "Cannot reconcile table "
                    + v1
                    + ": 1,200 of 1,200 rows do not decode with"
                    + " layout telemetry-v2: first key 0x"),
        e.getMessage());
    assertTrue(
        e.getMessage()
            .contains("Check that --old-layout is the layout table " + v1 + " was written with"),
        e.getMessage());

    e =
        assertThrows(
            RekeyException.class,
            () -> run(opts(oldTable(), TableName.valueOf("no_such_table")).build()));
    assertTrue(
        e.getMessage().startsWith("Cannot read table no_such_table: it does not exist"),
        e.getMessage());
    e =
        assertThrows(
            RekeyException.class,
            () -> run(opts(SideSpec.snapshot("old", "no_such_snap", V1), v2).build()));
    assertTrue(
        e.getMessage().startsWith("Cannot read snapshot no_such_snap: it does not exist"),
        e.getMessage());
  }

  @Test
  void cliWritesReportsAndExitsThreeOnMismatchAndTwoOnEmptyRange(@TempDir Path dir)
      throws Exception {
    Path out = dir.resolve("report");
    RekeyProcess.Result r =
        reconcileCli(
            v2Faulty,
            "2026-11-29T00:00:00Z",
            "2026-11-29T06:00:00Z",
            "--digest",
            "--samples",
            "3",
            "--out",
            out.toString());
    assertEquals(3, r.exitCode(), r.all());
    assertTrue(r.stdout().contains("MISMATCH: 5 of 6 buckets differ"), r.stdout());
    assertTrue(
        r.stdout().contains("missing in new: deviceId=" + Hex.of(lost.deviceId())), r.stdout());
    assertTrue(
        r.stdout()
            .contains(
                "2026-11-29T04:00:00Z              200            0        -200         NO  MISMATCH"),
        r.stdout());
    JsonNode json = new ObjectMapper().readTree(out.resolve("reconcile.json").toFile());
    assertFalse(json.get("match").asBoolean());
    assertEquals(6, json.get("buckets").size());
    assertEquals(-200, json.get("buckets").get(4).get("difference").asLong());
    JsonNode oldRegion = json.get("old").get("regionScans").get(0);
    assertEquals(
        Hex.of(Bytes.toBytes(START)), oldRegion.get("ranges").get(0).get("start").asText());
    assertEquals(
        Hex.of(Bytes.toBytes(START + 6 * HOUR)),
        oldRegion.get("ranges").get(0).get("stop").asText());
    assertEquals(1_200, oldRegion.get("rowsScanned").asLong());
    assertEquals(16, json.get("new").get("regionScans").size());
    String html = Files.readString(out.resolve("reconcile.html"));
    assertTrue(
        html.contains("<svg") && html.contains("class=\"mismatch\"") && !html.contains("<script"));

    r = reconcileCli(v2, "2026-11-29T06:00:00Z", "2026-11-29T06:00:00Z", "--out", out.toString());
    assertEquals(2, r.exitCode(), r.all());
    assertTrue(
        r.stderr()
            .contains("Error: Invalid time range: --from 2026-11-29T06:00:00Z is not before --to"),
        r.all());
  }

  /**
   * `rekey reconcile` of v1 against {@code neu} in hourly buckets of [from, to), with {@code more}.
   */
  private RekeyProcess.Result reconcileCli(TableName neu, String from, String to, String... more)
      throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "reconcile",
                "--old-table",
                v1.getNameAsString(),
                "--old-layout",
                TelemetryFixture.V1_FILE.toString(),
                "--new-table",
                neu.getNameAsString(),
                "--new-layout",
                TelemetryFixture.V2_FILE.toString(),
                "--bucket",
                "1h",
                "--from",
                from,
                "--to",
                to));
    args.addAll(List.of(more));
    return RekeyProcess.run(300, args.toArray(String[]::new));
  }

  @Test
  void withoutFromAndToTheWholeRangeOfTheDataIsCompared() {
    ReconcileResult r = run(opts(oldTable(), v2).from((String) null).to((String) null).build());
    assertTrue(r.matches(), () -> r.buckets().toString());
    assertTrue(r.rangeFromData());
    // the readings span six hours from START (on the hour): whole hours covering the first and the
    // last reading
    assertEquals(START, r.from());
    assertEquals(START + 6 * HOUR, r.to());
    assertEquals(6, r.buckets().size());
    assertEquals(0, r.old().outsideRange());
    assertEquals(1_200, r.neu().inRange());
  }
}

package dev.rekey.jobs.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeWindow;
import dev.rekey.demo.EventGenerator;
import dev.rekey.demo.EventsTable;
import dev.rekey.read.RegionScan;
import dev.rekey.read.Source;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The scan job in-process on the shared SparkSession against the test run's embedded HBase server.
 */
@Tag("e2e")
class ScanIT {
  static final int EVENTS = 2_000;
  static final int USERS = 150;
  static final int REGIONS = 4;
  static final long DAY = 86_400_000L;
  static final long DAY_START = dev.rekey.demo.TelemetryGenerator.DEFAULT_START;

  static KeyLayout events;
  static TableName eventsTable;
  static EventGenerator gen;

  @BeforeAll
  static void eventsTable() throws Exception {
    events = Layouts.shipped("events-v2");
    // events over two days: the --day window must keep only the first
    gen = new EventGenerator(EVENTS, USERS, DAY_START, 2 * DAY);
    eventsTable = SharedHBase.uniqueTable("scan_events");
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      EventsTable.create(admin, eventsTable, events, REGIONS);
      EventsTable.write(SharedHBase.connection(), eventsTable, events, gen);
      admin.flush(eventsTable);
    }
  }

  static Path out(String name) {
    return SharedHBase.runRoot().resolve("scan-it").resolve(name + "-" + System.nanoTime());
  }

  /** A report file {@code name} holding {@code sql}, written into {@code dir} (created). */
  static Path report(Path dir, String name, String sql) throws IOException {
    Files.createDirectories(dir);
    return Files.writeString(dir.resolve(name), sql);
  }

  /** The scan of {@code o}, refused. */
  private static RekeyException refused(ScanOptions o) {
    return assertThrows(RekeyException.class, () -> run(o));
  }

  static ScanResult run(ScanOptions o) {
    return new ScanJob(SharedSpark.session(), SharedHBase.conf(), o).execute();
  }

  static ReportFile report(String name) {
    return ReportFile.load(ReportFile.resolve(name, SharedHBase.rekeyHome()));
  }

  /** user -> [events, first, last], computed from the generator for [from, to). */
  static Map<String, long[]> expectedActivity(long from, long to) {
    Map<String, long[]> m = new TreeMap<>();
    for (int i = 0; i < gen.events(); i++) {
      EventGenerator.Event e = gen.event(i);
      if (e.ts() < from || e.ts() >= to) {
        continue;
      }
      long[] a = m.computeIfAbsent(e.userId(), u -> new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE});
      a[0]++;
      a[1] = Math.min(a[1], e.ts());
      a[2] = Math.max(a[2], e.ts());
    }
    return m;
  }

  static Map<String, long[]> readActivity(String dir) {
    Map<String, long[]> m = new TreeMap<>();
    for (Row r : SharedSpark.session().read().parquet(dir).collectAsList()) {
      long[] prev =
          m.put(
              r.getAs("userId"),
              new long[] {
                r.<Long>getAs("events"),
                r.<Long>getAs("first_event_ms"),
                r.<Long>getAs("last_event_ms")
              });
      assertNull(prev, "one row per user for one day");
    }
    return m;
  }

  static void assertSameActivity(Map<String, long[]> expected, Map<String, long[]> actual) {
    assertEquals(expected.keySet(), actual.keySet());
    for (String u : expected.keySet()) {
      assertEquals(
          List.of(expected.get(u)[0], expected.get(u)[1], expected.get(u)[2]),
          List.of(actual.get(u)[0], actual.get(u)[1], actual.get(u)[2]),
          u);
    }
  }

  @Test
  void allUserReportMatchesTheGeneratorOnTableAndSnapshot() throws Exception {
    TimeWindow day = TimeWindow.ofDay("2026-11-29");
    Map<String, long[]> expected = expectedActivity(day.from(), day.to());
    long expectedEvents = expected.values().stream().mapToLong(a -> a[0]).sum();
    assertTrue(
        expectedEvents > 0 && expectedEvents < EVENTS,
        "the window cuts the data: " + expectedEvents);

    Path liveOut = out("live");
    ScanResult live =
        run(
            ScanOptions.builder()
                .table(eventsTable.getNameAsString())
                .layout(events)
                .window(day)
                .report(report("user_daily_activity"))
                .out(liveOut)
                .build());
    assertEquals(REGIONS, live.regions());
    assertEquals(REGIONS, live.partitions(), "one Spark task per region");
    assertEquals(expectedEvents, live.rows());
    assertEquals(2 * expectedEvents, live.cells());
    assertEquals(0, live.undecodable());
    assertEquals(live.rows(), live.perRegion().stream().mapToLong(RegionTotals::rows).sum());
    assertTrue(
        live.perRegion().stream().allMatch(t -> t.rows() > 0 && t.partitions() == 1),
        "hash prefix spreads");
    assertEquals(expected.size(), live.reports().get(0).rows());
    assertSameActivity(expected, readActivity(live.reports().get(0).path()));

    JsonNode summary = new ObjectMapper().readTree(liveOut.resolve("summary.json").toFile());
    assertEquals(expectedEvents, summary.get("totals").get("rows").asLong());
    assertEquals(REGIONS, summary.get("perRegion").size());
    long perRegionCells = 0;
    for (JsonNode r : summary.get("perRegion")) {
      perRegionCells += r.get("cells").asLong();
    }
    assertEquals(2 * expectedEvents, perRegionCells, "per-region cells add up to the total");
    String html = Files.readString(liveOut.resolve("report.html"));
    assertEquals(REGIONS, html.split("<rect class=\"bar\"").length - 1);
    assertTrue(html.contains("user_daily_activity"));

    String snapshot = eventsTable.getNameAsString() + "_snap";
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.snapshot(snapshot, eventsTable);
    }
    ScanResult snap =
        run(
            ScanOptions.builder()
                .snapshot(snapshot)
                .layout(events)
                .window(day)
                .splitsPerRegion(2)
                .report(report("user_daily_activity"))
                .out(out("snapshot"))
                .build());
    assertEquals(REGIONS, snap.regions());
    assertEquals(2 * REGIONS, snap.partitions(), "k splits per region");
    assertEquals(live.rows(), snap.rows());
    assertEquals(live.cells(), snap.cells());
    assertEquals(live.bytes(), snap.bytes());
    assertEquals(REGIONS, snap.perRegion().size());
    for (int r = 0; r < REGIONS; r++) {
      assertEquals(live.perRegion().get(r).rows(), snap.perRegion().get(r).rows(), "region " + r);
    }
    assertSameActivity(expected, readActivity(snap.reports().get(0).path()));

    // --where userId=U: that user's one key range, in one region; the other regions' tasks read
    // nothing
    String user = expected.keySet().iterator().next();
    ScanResult one =
        run(
            ScanOptions.builder()
                .snapshot(snapshot)
                .layout(events)
                .window(day)
                .where("userId=" + user)
                .report(report("user_daily_activity"))
                .out(out("where"))
                .build());
    assertEquals(expected.get(user)[0], one.rows());
    assertEquals(
        Map.of(user, List.of(expected.get(user)[0], expected.get(user)[1], expected.get(user)[2])),
        readActivity(one.reports().get(0).path()).entrySet().stream()
            .collect(
                java.util.stream.Collectors.toMap(
                    Map.Entry::getKey,
                    e -> List.of(e.getValue()[0], e.getValue()[1], e.getValue()[2]))));
    assertTrue(one.pruning().startsWith("1 key range: entity userId=" + user), one.pruning());
    assertEquals(REGIONS, one.regionScans().size());
    assertEquals(1, one.regionScans().stream().filter(s -> !s.ranges().isEmpty()).count());
    assertEquals(one.rows(), one.regionScans().stream().mapToLong(RegionScan::rowsScanned).sum());
    assertTrue(snap.pruning().startsWith("every key, window as a cell time range"), snap.pruning());
    assertEquals(snap.rows(), snap.regionScans().stream().mapToLong(RegionScan::rowsScanned).sum());

    // --via-snapshot: the job takes its own snapshot of the live table, scans its files and deletes
    // it
    ScanResult via =
        run(
            ScanOptions.builder()
                .source(Source.tableViaSnapshot(eventsTable.getNameAsString()))
                .layout(events)
                .window(day)
                .report(report("user_daily_activity"))
                .out(out("via"))
                .build());
    assertTrue(
        via.source()
            .startsWith("table " + eventsTable.getNameAsString() + " via snapshot rekey_scan_"),
        via.source());
    assertEquals(live.rows(), via.rows());
    assertEquals(live.cells(), via.cells());
    for (int r = 0; r < REGIONS; r++) {
      assertEquals(live.perRegion().get(r).rows(), via.perRegion().get(r).rows(), "region " + r);
    }
    assertSameActivity(expected, readActivity(via.reports().get(0).path()));
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      assertTrue(
          admin.listSnapshots().stream().noneMatch(d -> d.getName().startsWith("rekey_scan_")),
          "the scan's snapshot is deleted");
    }
  }

  @Test
  void timeWindowExcludesCellsOutsideIt() throws Exception {
    KeyLayout v1 = Layouts.shipped("telemetry-v1");
    TableName t = SharedHBase.uniqueTable("scan_window");
    byte[] d = Bytes.toBytes("d");
    byte[] dev = new byte[16];
    dev[0] = 7;
    long w0 = DAY_START + 3_600_000L;
    long w1 = w0 + 600_000L; // a 10-minute window: two 5-minute buckets
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(t)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(d))
              .build());
    }
    List<Put> puts = new ArrayList<>();
    long[] inside = {w0, w0 + 1, w0 + 299_999, w0 + 300_000, w1 - 1};
    long[] outside = {w0 - 1, w1, w1 + 5_000, DAY_START};
    for (long ts : inside) {
      puts.add(reading(v1, dev, ts, ts, 10, "ok"));
    }
    for (long ts : outside) {
      puts.add(reading(v1, dev, ts, ts, 99, "alert"));
    }
    // key time inside the window, but one cell stamped before it: the row shows up with only the
    // cell in the window
    Put mixed = new Put(v1.encode(Map.of("ts", w0 + 2, "deviceId", dev)));
    mixed.addColumn(d, Bytes.toBytes("v"), w0 + 2, Bytes.toBytes(20L));
    mixed.addColumn(d, Bytes.toBytes("s"), w0 - 10, Bytes.toBytes("alert"));
    puts.add(mixed);
    try (Table table = SharedHBase.connection().getTable(t)) {
      table.put(puts);
    }

    Path dir = out("window");
    Path cellsSql =
        report(
            dir,
            "cells_by_column.sql",
            "-- cells per column, from the long form\nSELECT family, qualifier, COUNT(*) AS n,"
                + " MIN(cell_ts) AS lo, MAX(cell_ts) AS hi FROM scan_cells GROUP BY family, qualifier ORDER BY qualifier\n");
    ScanResult r =
        run(
            ScanOptions.builder()
                .table(t.getNameAsString())
                .layout(v1)
                .window(new TimeWindow(w0, w1))
                .report(report("device_window_counts"))
                .report(ReportFile.load(cellsSql))
                .out(dir)
                .build());
    List<Row> byColumn =
        SharedSpark.session().read().parquet(r.reports().get(1).path()).collectAsList();
    assertEquals("s", byColumn.get(0).getAs("qualifier"));
    assertEquals(inside.length, (long) byColumn.get(0).<Long>getAs("n"));
    assertEquals(inside.length + 1, (long) byColumn.get(1).<Long>getAs("n"));
    for (Row c : byColumn) {
      assertTrue(c.<Long>getAs("lo") >= w0 && c.<Long>getAs("hi") < w1, c.toString());
    }
    assertEquals(inside.length + 1, r.rows());
    // ts leads the legacy key: the window is one key range, and the task reads only its rows
    assertTrue(r.pruning().startsWith("1 key range: time field ts leads the key"), r.pruning());
    assertEquals(1, r.regionScans().size());
    assertEquals(inside.length + 1, r.regionScans().get(0).rowsScanned());
    assertTrue(
        r.reading().startsWith("live table " + t.getNameAsString() + " through its RegionServers"));
    assertEquals(2 * inside.length + 1, r.cells());
    List<Row> rows =
        SharedSpark.session()
            .read()
            .parquet(r.reports().get(0).path())
            .orderBy("window_start_ms")
            .collectAsList();
    assertEquals(2, rows.size());
    Row first = rows.get(0);
    assertEquals(Hex.of(dev), first.getAs("device"));
    assertEquals(w0, ((Number) first.getAs("window_start_ms")).longValue());
    assertEquals(4L, (long) first.<Long>getAs("readings")); // w0, w0+1, w0+2 (mixed), w0+299999
    assertEquals(10L, (long) first.<Long>getAs("min_reading"));
    assertEquals(20L, (long) first.<Long>getAs("max_reading"));
    assertEquals(
        0L, (long) first.<Long>getAs("alerts"), "the alert cell outside the window is not read");
    assertEquals(2L, (long) rows.get(1).<Long>getAs("readings"));
  }

  static Put reading(
      KeyLayout layout, byte[] dev, long keyTs, long cellTs, long value, String status) {
    Put p = new Put(layout.encode(Map.of("ts", keyTs, "deviceId", dev)));
    p.addColumn(
        Bytes.toBytes("d"),
        Bytes.toBytes("v"),
        cellTs,
        ByteBuffer.allocate(8).putLong(value).array());
    p.addColumn(Bytes.toBytes("d"), Bytes.toBytes("s"), cellTs, Bytes.toBytes(status));
    return p;
  }

  @Test
  void aLayoutThatDoesNotDecodeTheKeysFailsWithCountAndSamples() {
    RekeyException e =
        refused(
            ScanOptions.builder()
                .table(eventsTable.getNameAsString())
                .layout(Layouts.shipped("telemetry-v2"))
                .report(report("device_window_counts"))
                .out(out("wrong-layout"))
                .build());
    assertEquals(ExitCodes.FAILURE, e.exitCode());
    assertTrue(
        e.getMessage().contains(EVENTS + " of " + EVENTS + " row keys do not decode"),
        e.getMessage());
    assertTrue(e.getMessage().contains("with layout telemetry-v2"), e.getMessage());
    assertEquals(
        ScanOptions.DEFAULT_SAMPLES,
        e.getMessage().split("partition \\d+: [0-9a-f]+: ").length - 1,
        e.getMessage());
  }

  @Test
  void aSqlErrorNamesTheReportFileAndLine() throws Exception {
    Path dir = out("bad-sql");
    Path sql =
        report(
            dir,
            "broken.sql",
            "-- a report with a typo\n-- @param from long start\nSELECT userId,\n  COUNT(*) AS n,\n"
                + "  MAX(no_such_column) AS m\nFROM scan_rows\nWHERE ts >= ${from}\nGROUP BY userId\n");
    // the report file is read on each run: the second run sees it rewritten
    Executable scanWithReport =
        () ->
            run(
                ScanOptions.builder()
                    .table(eventsTable.getNameAsString())
                    .layout(events)
                    .report(ReportFile.load(sql))
                    .out(dir)
                    .build());
    RekeyException e = assertThrows(RekeyException.class, scanWithReport);
    assertEquals(ExitCodes.USAGE, e.exitCode());
    assertTrue(
        e.getMessage()
            .startsWith(
                "Cannot run report broken: SQL error at " + sql + ":5 (MAX(no_such_column) AS m)"),
        e.getMessage());
    assertTrue(e.getMessage().contains("no_such_column"), e.getMessage());

    Files.writeString(sql, "-- syntax\nSELECT userId\nFROM scan_rows\nGROUP BY BY userId\n");
    e = assertThrows(RekeyException.class, scanWithReport);
    assertTrue(
        e.getMessage().startsWith("Cannot run report broken: SQL error at " + sql + ":4"),
        e.getMessage());
  }

  @Test
  void missingTableIsAClearError() {
    RekeyException e =
        refused(
            ScanOptions.builder()
                .table("no_such_table_x")
                .layout(events)
                .out(out("missing"))
                .build());
    assertTrue(
        e.getMessage().contains("Cannot read table no_such_table_x: it does not exist"),
        e.getMessage());
  }

  static SparkSession spark() {
    return SharedSpark.session();
  }
}

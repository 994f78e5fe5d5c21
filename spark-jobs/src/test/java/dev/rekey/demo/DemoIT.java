package dev.rekey.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.Poll;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.TableContents;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** bin/rekey demo as a user runs it, against the test run's embedded HBase server process. */
@Tag("e2e")
class DemoIT {
  private static final int ROWS = 5_000;
  private static final int DEVICES = 25;

  /**
   * A demo killed half-way, then two whole runs: each starts from what the one before left (a
   * half-written legacy table, then a finished demo) and ends with the same tables and reports. The
   * first migrates with dual writes, the second without ({@code --writers replication}: the writer
   * writes telemetry_v1 alone and the rekeying replication peer brings its edits to both new
   * tables, which then reconcile green).
   */
  @Test
  void demoKilledHalfWayRunsAgainAndAgain() throws Exception {
    SharedHBase.server();
    killHalfWay();
    for (int run = 1; run <= 2; run++) {
      RekeyProcess.Running demo =
          RekeyProcess.start(
              RekeyProcess.builder(
                  "demo",
                  "--rows",
                  Integer.toString(ROWS),
                  "--devices",
                  Integer.toString(DEVICES),
                  // the second run migrates without dual writes: the writer writes telemetry_v1
                  // only
                  "--writers",
                  run == 1 ? "dual" : "replication"));
      RekeyProcess.Result r;
      try {
        if (run == 1) {
          aSecondDemoRefusesAtOnceNamingTheRunningOne(demo);
        }
        r = demo.await(600);
      } finally {
        demo.process().destroyForcibly(); // none left behind when a check above fails
      }
      assertEquals(0, r.exitCode(), "run " + run + ":\n" + r.all());
      assertTrue(r.stdout().contains("dropped table telemetry_v1 from an earlier run"), r.stdout());
      assertTrue(r.stdout().contains("5,000 readings from 25 devices"), r.stdout());
      assertTrue(
          r.stdout().contains("already running"),
          "the demo reuses the running server:\n" + r.stdout());
      String legacyAnalyze = step(r.stdout(), "Analyze telemetry_v1");
      assertTrue(
          legacyAnalyze.contains("verdict: HOTSPOT")
              && legacyAnalyze.contains("recommendation: salt, N = 16, 16 regions"),
          "analyze shows the legacy hotspot:\n" + legacyAnalyze);
      // the salted table right after the backfill: evenly spread, its last hour only the writer's
      // updates, one RegionServer: too few recent rows to judge, the salt kept, no hotspot
      String saltedAnalyze = step(r.stdout(), "Analyze telemetry_v2");
      assertFalse(saltedAnalyze.contains("HOTSPOT"), saltedAnalyze);
      assertTrue(
          saltedAnalyze.contains("verdict: not enough recent rows to judge: ")
              && saltedAnalyze.contains(", need 30")
              && saltedAnalyze.contains(
                  "one live RegionServer: write spread across servers cannot be judged")
              && saltedAnalyze.contains("recommendation: none, 16 regions")
              && saltedAnalyze.contains("key shape: keep it — its salt (16 buckets) spreads"),
          saltedAnalyze);
      assertLegacyTableMatchesGenerator();
      // step 4: the backfill into the 16-region salted table
      // the snapshot holds the legacy rows and the dual writer's first batch
      assertTrue(
          r.stdout().contains("read 5,100 = written 5,100 + quarantined 0 + filtered 0"),
          r.stdout());
      assertEquals(
          16, SharedHBase.connection().getAdmin().getRegions(DemoTables.TELEMETRY_V2).size());
      assertNightlyReports(r.stdout());
      // the reconcile step: green, 3 deleted rows caught (exit 3) with their natural keys,
      // repaired by rekey repair, green
      assertTrue(r.stdout().contains("MATCH: all 24 buckets agree"), r.stdout());
      assertTrue(
          r.stdout().contains("reconcile exit code 3: 3 natural keys missing in telemetry_v2"),
          r.stdout());
      assertTrue(
          r.stdout().contains("repair exit code 0: the 3 rows put back with their original cells"),
          r.stdout());
      assertTrue(
          r.stdout()
              .contains(
                  "reconcile after the repair: exit code 0 (all buckets match, digests equal)"),
          r.stdout());
      // dual writes during the backfill, then the read switch: no mismatch, one hour read the same
      // from both tables
      if (run == 1) {
        assertTrue(r.stdout().contains("updates written to all 3 tables (flushed)"), r.stdout());
      } else {
        assertTrue(
            r.stdout().contains("written to telemetry_v1 only (replication brings them"),
            r.stdout());
        assertTrue(
            r.stdout().contains("the writer's last edit reached both new tables through"),
            r.stdout());
        assertTrue(r.stdout().contains("replication peer rekey_telemetry_v1 removed"), r.stdout());
      }
      // an HBase client of its own: the old table equals each new one by natural key, every cell
      // and version (the second run's new tables got the writer's rows through replication only)
      java.util.Map<String, List<String>> old =
          TableContents.byNaturalKey(DemoTables.TELEMETRY_V1, Layouts.shipped("telemetry-v1"));
      assertEquals(
          old,
          TableContents.byNaturalKey(DemoTables.TELEMETRY_V2, Layouts.shipped("telemetry-v2")),
          "run " + run + ": telemetry_v2");
      assertEquals(
          old,
          TableContents.byNaturalKey(
              DemoTables.TELEMETRY_BY_DEVICE, Layouts.shipped("telemetry-by-device")),
          "run " + run + ": telemetry_by_device");
      // the history table: backfilled in the same run, reconciled, and one device's history read
      // from it equals the salted table's merged read
      assertTrue(
          r.stdout().lines().filter(l -> l.startsWith("MATCH: all 24 buckets agree")).count() >= 2,
          r.stdout());
      assertTrue(
          r.stdout().contains("telemetry_by_device: read 5,100 = written 5,100 + quarantined 0"),
          r.stdout());
      assertTrue(
          r.stdout().contains("same readings, newest first, on both tables: yes"), r.stdout());
      assertTrue(r.stdout().contains("0 mismatched (0 rows), 0 new-table errors"), r.stdout());
      assertTrue(r.stdout().contains("same rows in the same order: yes"), r.stdout());
    }
    notebooksRunOnTheDemoOutputs();
  }

  /** The output of the demo's step whose title starts with {@code title}, up to the next step. */
  private static String step(String stdout, String title) {
    int at = stdout.indexOf(". " + title);
    assertTrue(at >= 0, "no step " + title + ":\n" + stdout);
    int next = stdout.indexOf("\n== ", at);
    return stdout.substring(at, next < 0 ? stdout.length() : next);
  }

  /**
   * Two demos at once against one server: while {@code first} runs, a second refuses before it
   * drops anything, naming the first (the demo lock in the server's run directory); the first goes
   * on (its caller checks that it completes). Run inside the first demo of {@link
   * #demoKilledHalfWayRunsAgainAndAgain} rather than with a demo of its own: a whole demo less.
   */
  private static void aSecondDemoRefusesAtOnceNamingTheRunningOne(RekeyProcess.Running first)
      throws Exception {
    Path runDir = SharedHBase.server().runDir();
    // past its lock: the demo prints its first step after taking it
    Poll.until(
        () -> first.stdoutSoFar().contains("== 1. Embedded HBase"),
        Duration.ofSeconds(300),
        Duration.ofMillis(200),
        () -> new IllegalStateException("the first demo did not start: " + first.stdoutSoFar()));
    long t0 = System.nanoTime();
    RekeyProcess.Result second =
        RekeyProcess.run(
            120, "demo", "--rows", Integer.toString(ROWS), "--devices", Integer.toString(DEVICES));
    double seconds = (System.nanoTime() - t0) / 1e9;
    long pid = first.process().pid();
    assertEquals(4, second.exitCode(), second.all());
    List<String> err = second.stderr().strip().lines().toList();
    String last = err.get(err.size() - 1);
    assertTrue(
        last.startsWith("Error: Cannot run the demo: another demo (pid " + pid + ", started at "),
        second.all());
    assertTrue(
        last.endsWith(
            ") is running against the embedded HBase in "
                + runDir
                + "; wait for it or stop it (kill "
                + pid
                + ")"),
        second.all());
    assertFalse(second.stdout().contains("== 1."), "the second demo did nothing:\n" + second.all());
    assertTrue(first.process().isAlive(), "the first demo still runs:\n" + first.stdoutSoFar());
    assertTrue(seconds < 60, "refused in " + seconds + " s");
  }

  /**
   * Every notebook of notebooks-export/ executed on this small demo's outputs by the export command
   * users run: a cell error fails the export (exit 1, the error printed), and each page must come
   * out with its charts embedded.
   */
  private static void notebooksRunOnTheDemoOutputs() throws Exception {
    Path home = SharedHBase.rekeyHome();
    Path html = SharedHBase.runRoot().resolve("notebooks-html");
    ProcessBuilder pb =
        new ProcessBuilder(
                home.resolve("notebooks-export/export.sh").toString(),
                "--from",
                SharedHBase.runRoot().toString(),
                "--html-dir",
                html.toString())
            .directory(home.toFile());
    RekeyProcess.Result r = RekeyProcess.run(pb, 600);
    assertEquals(0, r.exitCode(), r.all());
    List<Path> notebooks;
    try (Stream<Path> files = Files.list(home.resolve("notebooks-export"))) {
      notebooks = files.filter(f -> f.toString().endsWith(".ipynb")).sorted().toList();
    }
    assertEquals(4, notebooks.size(), notebooks.toString());
    for (Path nb : notebooks) {
      String name = nb.getFileName().toString().replace(".ipynb", ".html");
      String page = Files.readString(html.resolve(name));
      assertTrue(r.stdout().contains("export: wrote " + html.resolve(name)), r.stdout());
      assertTrue(page.contains("src=\"data:image/png;base64,"), name + " has no embedded chart");
      assertFalse(page.contains("<script src="), name + " loads a script from elsewhere");
    }
  }

  /**
   * The scan step: the all-user report over events_v2 and the device windows over the telemetry
   * table.
   */
  private static void assertNightlyReports(String stdout) throws java.io.IOException {
    EventGenerator gen = Demo.events();
    long day = dev.rekey.common.TimeWindow.ofDay(Demo.DEMO_DAY).from();
    long users =
        java.util.stream.IntStream.range(0, gen.events())
            .mapToObj(gen::event)
            .filter(e -> e.ts() >= day)
            .map(EventGenerator.Event::userId)
            .distinct()
            .count();
    assertTrue(stdout.contains("90,000 events from 300 users over 30 days written"), stdout);
    assertTrue(stdout.contains("report user_daily_activity: " + users + " rows in "), stdout);
    // the report's day from a snapshot of 30 days: the last day's file of each region is read
    assertTrue(
        java.util.regex.Pattern.compile(
                "table events_v2 via snapshot rekey_scan_events_v2_\\S+: "
                    + Demo.EVENT_REGIONS
                    + " regions, "
                    + Demo.EVENT_REGIONS
                    + " Spark tasks; read 3,000 rows = 3,000 decoded \\+ 0 undecodable")
            .matcher(stdout)
            .find(),
        stdout);
    assertTrue(
        stdout.contains("store files: 4 read, 116 skipped by time range ("),
        "29 of each region's 30 daily files skipped:\n" + stdout);
    assertSkippedInSummary(stdout);
    assertTrue(stdout.contains("report device_window_counts: "), stdout);
    assertTrue(stdout.contains("report.html"), stdout);
  }

  /** events_v2's summary.json records the files skipped, in total and per region. */
  private static void assertSkippedInSummary(String stdout) throws java.io.IOException {
    Path summary =
        stdout
            .lines()
            .filter(l -> l.startsWith("  summary ") && l.contains("events_v2"))
            .map(l -> Path.of(l.substring("  summary ".length()).trim()))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no events_v2 summary line:\n" + stdout));
    com.fasterxml.jackson.databind.JsonNode json =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(summary.toFile());
    assertEquals(
        116, json.get("totals").get("storeFiles").get("skipped").asInt(), summary.toString());
    assertEquals(4, json.get("totals").get("storeFiles").get("read").asInt());
    for (com.fasterxml.jackson.databind.JsonNode region : json.get("regionScans")) {
      assertEquals(29, region.get("storeFiles").get("skipped").asInt(), region.toString());
    }
  }

  /** Starts a demo big enough to still be writing when killed, and kills it half-way. */
  private static void killHalfWay() throws Exception {
    Process p =
        RekeyProcess.builder("demo", "--rows", "3000000", "--devices", "100")
            .redirectErrorStream(true)
            .start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.contains("wrote ")) {
        // wait for the first progress line: the demo is half-way through writing
      }
    }
    p.destroyForcibly();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
  }

  private static void assertLegacyTableMatchesGenerator() throws Exception {
    TelemetryGenerator gen = TelemetryGenerator.oneDay(ROWS, DEVICES);
    try (Admin admin = SharedHBase.connection().getAdmin();
        Table t = SharedHBase.connection().getTable(DemoTables.TELEMETRY_V1);
        ResultScanner scanner = t.getScanner(new Scan())) {
      assertTrue(
          admin.listSnapshots().stream()
              .anyMatch(s -> s.getName().equals(DemoTables.TELEMETRY_V1_SNAPSHOT)));
      assertEquals(1, admin.getRegions(DemoTables.TELEMETRY_V1).size());
      long i = 0;
      long dual = 0;
      java.util.Set<Long> updated = new java.util.HashSet<>();
      for (int k = 0; k < DemoDualWrites.UPDATES; k++) {
        updated.add(DemoDualWrites.updatedIndex(k, ROWS));
      }
      for (Result row : scanner) {
        if (DemoDualWrites.isDualWriterDevice(java.util.Arrays.copyOfRange(row.getRow(), 8, 24))) {
          dual++; // a reading the demo's dual writer added
          continue;
        }
        // keys start with the growing timestamp, so the scan order is the generation order
        TelemetryReading expected = gen.reading(i);
        assertTrue(Bytes.equals(LegacyTelemetryTable.rowKey(expected), row.getRow()), "row " + i);
        long value =
            Bytes.toLong(row.getValue(LegacyTelemetryTable.FAMILY, LegacyTelemetryTable.VALUE));
        if (updated.contains(i)) {
          assertEquals(
              expected.value() + DemoDualWrites.UPDATE_DELTA,
              value,
              "updated through the dual writer: " + i);
        } else {
          assertEquals(expected.value(), value);
          assertEquals(
              expected.ts(),
              row.getColumnLatestCell(LegacyTelemetryTable.FAMILY, LegacyTelemetryTable.VALUE)
                  .getTimestamp());
        }
        i++;
      }
      assertTrue(dual >= DemoDualWrites.FIRST_BATCH, "dual-written readings: " + dual);
      assertEquals(ROWS, i);
    }
  }
}

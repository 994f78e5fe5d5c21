package dev.rekey.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
   * half-written legacy table, then a finished demo) and ends with the same tables and reports.
   */
  @Test
  void demoKilledHalfWayRunsAgainAndAgain() throws Exception {
    SharedHBase.server();
    killHalfWay();
    for (int run = 1; run <= 2; run++) {
      RekeyProcess.Result r =
          RekeyProcess.run(
              600,
              "demo",
              "--rows",
              Integer.toString(ROWS),
              "--devices",
              Integer.toString(DEVICES));
      assertEquals(0, r.exitCode(), "run " + run + ":\n" + r.all());
      assertTrue(r.stdout().contains("dropped table telemetry_v1 from an earlier run"), r.stdout());
      assertTrue(r.stdout().contains("5,000 readings from 25 devices"), r.stdout());
      assertTrue(
          r.stdout().contains("already running"),
          "the demo reuses the running server:\n" + r.stdout());
      assertTrue(
          r.stdout().contains("verdict: HOTSPOT")
              && r.stdout().contains("recommendation: salt, N = 16, 16 regions"),
          "analyze shows the legacy hotspot:\n" + r.stdout());
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
      assertTrue(r.stdout().contains("updates written to both tables (flushed)"), r.stdout());
      assertTrue(r.stdout().contains("0 mismatched (0 rows), 0 new-table errors"), r.stdout());
      assertTrue(r.stdout().contains("same rows in the same order: yes"), r.stdout());
    }
    notebooksRunOnTheDemoOutputs();
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
  private static void assertNightlyReports(String stdout) {
    EventGenerator gen = EventGenerator.oneDay(Demo.EVENTS, Demo.EVENT_USERS);
    long users =
        java.util.stream.IntStream.range(0, gen.events())
            .mapToObj(i -> gen.event(i).userId())
            .distinct()
            .count();
    assertTrue(stdout.contains("report user_daily_activity: " + users + " rows in "), stdout);
    assertTrue(
        stdout.contains(
            "table events_v2: "
                + Demo.EVENT_REGIONS
                + " regions, "
                + Demo.EVENT_REGIONS
                + " Spark tasks; read 3,000 rows = 3,000 decoded + 0 undecodable"),
        stdout);
    assertTrue(stdout.contains("report device_window_counts: "), stdout);
    assertTrue(stdout.contains("report.html"), stdout);
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

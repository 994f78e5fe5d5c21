package dev.rekey.jobs.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.demo.EventGenerator;
import dev.rekey.demo.EventsTable;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * bin/rekey scan as a user runs it (through SparkSubmit), against the test run's embedded HBase.
 */
@Tag("e2e")
class ScanCliIT {
  static TableName table;
  static EventGenerator gen = EventGenerator.oneDay(600, 40);

  @BeforeAll
  static void table() throws Exception {
    KeyLayout layout = Layouts.shipped("events-v2");
    table = SharedHBase.uniqueTable("scan_cli");
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      EventsTable.create(admin, table, layout, 2);
      EventsTable.write(SharedHBase.connection(), table, layout, gen);
    }
  }

  @Test
  void scanWritesCsvSummaryAndHtml() throws Exception {
    Path out = SharedHBase.runRoot().resolve("scan-cli-" + System.nanoTime());
    RekeyProcess.Result r =
        scanWithReport(
            "sql/user_daily_activity.sql",
            "--day",
            "2026-11-29",
            "--out",
            out.toString(),
            "--format",
            "csv");
    assertEquals(0, r.exitCode(), r.all());
    assertTrue(
        r.stdout().contains("read 600 rows = 600 decoded + 0 undecodable; 1,200 cells"),
        r.stdout());
    assertTrue(r.stdout().contains("2 regions, 2 partitions"), r.stdout());
    Set<String> users = new HashSet<>();
    for (int i = 0; i < gen.events(); i++) {
      users.add(gen.event(i).userId());
    }
    assertTrue(
        r.stdout()
            .contains(
                "report user_daily_activity: "
                    + users.size()
                    + " rows -> "
                    + out.resolve("user_daily_activity")),
        r.stdout());
    List<String> lines;
    try (Stream<Path> files = Files.list(out.resolve("user_daily_activity"))) {
      lines =
          files
              .filter(p -> p.toString().endsWith(".csv"))
              .flatMap(
                  p -> {
                    try {
                      return Files.readAllLines(p).stream().skip(1);
                    } catch (java.io.IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  })
              .toList();
    }
    assertEquals(users.size(), lines.size(), "one CSV line per user (after each file's header)");
    assertTrue(Files.isRegularFile(out.resolve("summary.json")));
    assertTrue(Files.readString(out.resolve("report.html")).contains("<svg"));
  }

  @Test
  void badInputExitsNonZeroWithAClearMessage() throws Exception {
    RekeyProcess.Result r = scanWithReport("sql/no_such_report.sql");
    assertEquals(2, r.exitCode(), r.all());
    assertTrue(
        r.stderr().contains("Error: Cannot run report sql/no_such_report.sql: no such file"),
        r.all());

    Path sql = SharedHBase.runRoot().resolve("scan-cli-bad-" + System.nanoTime() + ".sql");
    Files.writeString(
        sql,
        "-- typo on line 3\nSELECT userId,\n  COUNT(nope) AS n\nFROM scan_rows GROUP BY userId\n");
    r = scanWithReport(sql.toString());
    assertEquals(2, r.exitCode(), r.all());
    assertTrue(r.stderr().contains("SQL error at " + sql + ":3 (COUNT(nope) AS n)"), r.all());
    assertNothingRead(r);

    Files.writeString(
        sql,
        "-- a syntax error on line 3\nSELECT userId, COUNT(*) AS n\nFROM scan_rows GROUP BY BY userId\n");
    r = scanWithReport(sql.toString());
    assertEquals(2, r.exitCode(), r.all());
    assertEquals(
        "Error: Cannot run report "
            + sql.getFileName().toString().replace(".sql", "")
            + ": SQL error at "
            + sql
            + ":3 (FROM scan_rows GROUP BY BY userId): [PARSE_SYNTAX_ERROR] Syntax error at or"
            + " near 'userId': extra input 'userId'.(line 3, pos 27) (the views are scan_rows and"
            + " scan_cells, see sql/README.md)",
        lastLine(r.stderr()),
        r.all());
    assertNothingRead(r);

    r =
        RekeyProcess.run(
            300, "scan", "--table", table.getNameAsString(), "--layout", "telemetry-v1");
    assertEquals(1, r.exitCode(), r.all());
    assertTrue(r.stderr().contains("600 of 600 row keys do not decode"), r.all());
  }

  /** bin/rekey scan of the test's table with {@code report} and {@code more} arguments. */
  private static RekeyProcess.Result scanWithReport(String report, String... more)
      throws Exception {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "scan",
                "--table",
                table.getNameAsString(),
                "--layout",
                "events-v2",
                "--report",
                report));
    args.addAll(List.of(more));
    return RekeyProcess.run(300, args.toArray(String[]::new));
  }

  /** The report's error came before the read: the job printed no "scanning ..." line. */
  private static void assertNothingRead(RekeyProcess.Result r) {
    assertTrue(r.stdout().lines().noneMatch(l -> l.contains("scanning ")), r.all());
    assertTrue(r.stderr().lines().noneMatch(l -> l.contains("read and decode")), r.all());
  }

  private static String lastLine(String text) {
    List<String> lines = text.strip().lines().toList();
    return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
  }
}

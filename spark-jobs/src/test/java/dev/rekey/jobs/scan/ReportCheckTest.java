package dev.rekey.jobs.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A report's SQL is parsed and analysed against the views' schema before the scan reads anything:
 * on the shared SparkSession, without HBase.
 */
@Tag("unit")
class ReportCheckTest {
  @TempDir Path dir;

  /**
   * Runs the scan job with no HBase configuration at all: a job that got as far as its read would
   * fail on that, not with the report's error. Returns the error and checks that no progress line
   * (the first is "scanning ...") came before it.
   */
  private RekeyException scanFails(String layout, ReportFile report) {
    ScanOptions o =
        ScanOptions.builder()
            .table("events_v2")
            .layout(Layouts.shipped(layout))
            .report(report)
            .out(dir.resolve("out"))
            .build();
    List<String> progress = new ArrayList<>();
    RekeyException e =
        assertThrows(
            RekeyException.class,
            () -> new ScanJob(SharedSpark.session(), null, o).execute(progress::add));
    assertEquals(ExitCodes.USAGE, e.exitCode(), e.getMessage());
    assertEquals(List.of(), progress, "nothing was read before the report's error");
    return e;
  }

  private ReportFile report(String text) throws Exception {
    Path sql = dir.resolve("broken.sql");
    Files.writeString(sql, text);
    return ReportFile.load(sql);
  }

  @Test
  void aSyntaxErrorFailsBeforeTheReadWithTheParsersReasonAndLine() throws Exception {
    ReportFile r = report("-- syntax\nSELECT userId\nFROM scan_rows\nGROUP BY BY userId\n");
    RekeyException e = scanFails("events-v2", r);
    assertEquals(
        "Cannot run report broken: SQL error at "
            + r.path()
            + ":4 (GROUP BY BY userId): [PARSE_SYNTAX_ERROR] Syntax error at or near"
            + " 'userId': extra input 'userId'.(line 4, pos 12) (the views are scan_rows and scan_cells, see sql/README.md)",
        e.getMessage());
  }

  @Test
  void anUnknownColumnFailsBeforeTheReadNamingItAndItsLine() throws Exception {
    ReportFile r =
        report(
            "-- typo on line 3\n-- @param from long start\nSELECT userId,\n  MAX(no_such_column)"
                + " AS m\nFROM scan_cells\nWHERE ts >= ${from}\nGROUP BY userId\n");
    RekeyException e = scanFails("events-v2", r);
    assertTrue(
        e.getMessage()
            .startsWith(
                "Cannot run report broken: SQL error at "
                    + r.path()
                    + ":4 (MAX(no_such_column) AS m): [UNRESOLVED_COLUMN.WITH_SUGGESTION] A"
                    + " column or function parameter with name `no_such_column` cannot be"
                    + " resolved."),
        e.getMessage());
    assertTrue(e.getMessage().endsWith("see sql/README.md)"), e.getMessage());
  }

  @Test
  void theShippedReportsPassTheCheckWithTheirWideColumns() {
    Path home = SharedHBase.rekeyHome();
    for (String[] reportAndLayout :
        new String[][] {
          {"user_daily_activity", "events-v2"},
          {"device_window_counts", "telemetry-v2"}
        }) {
      ReportRunner.check(
          SharedSpark.session(),
          ScanOptions.builder()
              .table("t")
              .layout(Layouts.shipped(reportAndLayout[1]))
              .report(ReportFile.load(ReportFile.resolve(reportAndLayout[0], home)))
              .build());
    }
  }
}

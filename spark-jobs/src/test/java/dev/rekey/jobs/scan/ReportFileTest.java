package dev.rekey.jobs.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.testing.SharedHBase;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Report files: header parsing, parameter substitution, resolution, errors. */
@Tag("unit")
class ReportFileTest {
  static final Path HOME = SharedHBase.rekeyHome();

  static RekeyException usage(Runnable r) {
    RekeyException e = assertThrows(RekeyException.class, r::run);
    assertEquals(ExitCodes.USAGE, e.exitCode(), e.getMessage());
    return e;
  }

  static ReportFile parse(String text) {
    return ReportFile.parse("r", Path.of("sql/r.sql"), text);
  }

  @Test
  void shippedReportsDeclareTheirParameters() {
    ReportFile users = ReportFile.load(ReportFile.resolve("sql/user_daily_activity.sql", HOME));
    assertEquals("user_daily_activity", users.name());
    assertEquals(List.of("from", "to"), users.params().keySet().stream().sorted().toList());
    assertTrue(users.description().startsWith("Per user and UTC day"), users.description());
    assertTrue(users.columns().isEmpty());

    ReportFile devices = ReportFile.load(ReportFile.resolve("device_window_counts", HOME));
    assertEquals("5", devices.params().get("window_minutes").defaultValue());
    assertEquals("long", devices.params().get("window_minutes").type());
    assertEquals(
        List.of(WideColumn.parse("d:v=long:reading"), WideColumn.parse("d:s=string:status")),
        devices.columns());
    String sql = devices.render(Map.of("from", "10", "to", "20"));
    assertTrue(sql.contains("ts >= 10 AND ts < 20"), sql);
    assertTrue(sql.contains("floor(ts / (5 * 60000))"), sql);
    assertFalse(sql.contains("${"), sql);
    assertEquals(devices.text().lines().count(), sql.lines().count(), "substitution keeps lines");
  }

  @Test
  void renderSubstitutesLiteralsKeepsCommentsAndStripsTheSemicolon() {
    ReportFile r =
        parse(
            "-- demo\n-- @param from long start ${from}\n-- @param who string = bob a name\n"
                + "SELECT ${from} AS f, ${who} AS w;\n");
    assertEquals(
        "-- demo\n-- @param from long start ${from}\n-- @param who string = bob a name\n"
            + "SELECT 7 AS f, 'bob' AS w",
        r.render(Map.of("from", "7")));
    assertTrue(r.render(Map.of("from", "7", "who", "o'neil\\")).contains("'o\\'neil\\\\'"));
    assertEquals("demo", r.description());
    assertTrue(
        usage(() -> r.render(Map.of("from", "x")))
            .getMessage()
            .contains("Invalid value 'x' for parameter from (long) at sql/r.sql:4"));
    assertTrue(
        usage(() -> r.render(Map.of()))
            .getMessage()
            .contains("needs parameter 'from' (start ${from}): pass --param from=VALUE"));
  }

  /** Each malformed report file, with the whole message it must get (file and line first). */
  static Stream<Arguments> badHeaders() {
    return Stream.of(
        Arguments.of(
            "-- ok\nSELECT ${nope}\n",
            "Report r: undeclared parameter ${nope} at sql/r.sql:2 (declare it in the header: -- @param nope"
                + " long|double|string [= DEFAULT])"),
        Arguments.of(
            "-- @param x int\nSELECT 1",
            "Invalid parameter declaration at sql/r.sql:1: \'@param x int\' (expected: -- @param NAME"
                + " long|double|string [= DEFAULT] description)"),
        Arguments.of(
            "-- @param x long = y\nSELECT 1",
            "Invalid value \'y\' for parameter x (long) at sql/r.sql:1"),
        Arguments.of(
            "-- @params x\nSELECT 1",
            "Unknown header tag at sql/r.sql:1: \'@params x\' (known: @param, @column)"),
        Arguments.of(
            "-- @column dv\nSELECT 1",
            "Invalid column \'dv\': expected family:qualifier=type[:name], e.g. d:v=long (at sql/r.sql:1)"),
        Arguments.of("-- only a comment\n", "Report sql/r.sql has no query (only comments)"),
        Arguments.of(
            "-- @param x long\n-- @param x long\nSELECT 1",
            "Parameter \'x\' declared twice in sql/r.sql (line 2)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badHeaders")
  void aBadHeaderIsRefusedNamingFileAndLine(String text, String message) {
    assertEquals(message, usage(() -> parse(text)).getMessage());
  }

  @Test
  void unknownReportFileListsTheShippedOnes() {
    RekeyException e = usage(() -> ReportFile.resolve("sql/no_such_report.sql", HOME));
    assertTrue(
        e.getMessage().startsWith("Cannot run report sql/no_such_report.sql: no such file"),
        e.getMessage());
    assertTrue(
        e.getMessage().contains("device_window_counts.sql, user_daily_activity.sql"),
        e.getMessage());
  }

  @Test
  void linesForErrorMessages() {
    ReportFile r = parse("-- x uses foo\nSELECT a,\n  foo\nFROM t");
    assertEquals(3, r.lineMentioning("foo"));
    assertEquals(0, r.lineMentioning("fo"));
    assertEquals("foo", r.line(3));
    assertEquals(3, ReportRunner.lineAt("a\nb\nc", 4));
    assertEquals(1, ReportRunner.lineAt("abc", 0));
  }
}

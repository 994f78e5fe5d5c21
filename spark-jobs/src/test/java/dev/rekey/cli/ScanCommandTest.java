package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeWindow;
import dev.rekey.jobs.scan.OutputFormat;
import dev.rekey.jobs.scan.ScanOptions;
import dev.rekey.read.Source;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** rekey scan's command line to validated options, in-process (no Spark, no HBase). */
@Tag("unit")
class ScanCommandTest {
  static ScanOptions options(String... args) {
    ScanCommand c = new ScanCommand();
    new CommandLine(c).parseArgs(args);
    return c.options();
  }

  @Test
  void everyOptionReachesTheJob() {
    ScanOptions o =
        options(
            "--snapshot",
            "s1",
            "--layout",
            "telemetry-v2",
            "--day",
            "2026-11-29",
            "--report",
            "sql/device_window_counts.sql",
            "--report",
            "user_daily_activity",
            "--param",
            "window_minutes=15",
            "--out",
            "/tmp/x",
            "--format",
            "csv",
            "--splits-per-region",
            "3",
            "--families",
            "d,e",
            "--column",
            "d:x=double",
            "--caching",
            "50");
    assertEquals(Source.snapshot("s1"), o.source());
    assertEquals("telemetry-v2", o.layout().name());
    assertEquals(TimeWindow.ofDay("2026-11-29"), o.window());
    assertEquals(
        List.of("device_window_counts", "user_daily_activity"),
        o.reports().stream().map(r -> r.name()).toList());
    assertEquals("15", o.reportValues().get("window_minutes"));
    assertEquals("/tmp/x", o.out());
    assertEquals(OutputFormat.CSV, o.format());
    assertEquals(3, o.splitsPerRegion());
    assertEquals(List.of("d", "e"), o.families());
    assertEquals(
        List.of("x", "reading", "status"), o.columns().stream().map(c -> c.name()).toList());
    assertEquals(50, o.caching());
  }

  @Test
  void aMissingReportFileIsAUsageErrorNamingIt() {
    String message =
        usageError("--table", "t", "--layout", "events-v2", "--report", "sql/nope.sql");
    assertTrue(message.startsWith("Cannot run report sql/nope.sql: no such file"), message);
  }

  @Test
  void anUnknownLayoutIsAUsageErrorNamingIt() {
    String message = usageError("--table", "t", "--layout", "no-such-layout");
    assertTrue(
        message.startsWith("Cannot load layout 'no-such-layout' (--layout): no such file"),
        message);
  }

  /** Either/or options are a picocli group: neither, or both, is refused while parsing. */
  @Test
  void neitherOrBothOfTableAndSnapshotIsRefusedByTheParser() {
    CommandLine.ParameterException neither =
        assertThrows(CommandLine.ParameterException.class, () -> options("--layout", "events-v2"));
    assertTrue(neither.getMessage().contains("--table=T | --snapshot=S"), neither.getMessage());
    CommandLine.ParameterException both =
        assertThrows(
            CommandLine.ParameterException.class,
            () -> options("--table", "t", "--snapshot", "s", "--layout", "events-v2"));
    assertTrue(both.getMessage().contains("mutually exclusive"), both.getMessage());
  }

  @Test
  void anUnreadableTimeIsAUsageErrorNamingTheOption() {
    String message = usageError("--table", "t", "--layout", "events-v2", "--from", "soon");
    assertTrue(message.startsWith("Invalid --from 'soon'"), message);
  }

  @Test
  void cachingDefaultsToHBasesOwnAndANegativeOneIsAUsageError() {
    assertEquals(0, options("--table", "t", "--layout", "events-v2").caching());
    String message = usageError("--table", "t", "--layout", "events-v2", "--caching", "-5");
    assertTrue(message.startsWith("Invalid --caching -5"), message);
  }

  /** The message of the usage error (exit code USAGE) these arguments give. */
  private static String usageError(String... args) {
    RekeyException e = assertThrows(RekeyException.class, () -> options(args));
    assertEquals(ExitCodes.USAGE, e.exitCode());
    return e.getMessage();
  }
}

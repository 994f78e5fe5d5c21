package dev.rekey.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The time options every job shares: --from/--to/--day and --bucket, and their refusals. */
@Tag("unit")
class TimeArgsTest {
  static final long DAY = 1_795_910_400_000L; // 2026-11-29T00:00:00Z

  private static String usage(Runnable r) {
    RekeyException e = assertThrows(RekeyException.class, r::run);
    assertEquals(ExitCodes.USAGE, e.exitCode(), e.getMessage());
    return e.getMessage();
  }

  @Test
  void instantsParseIsoDatesAndEpochMillis() {
    assertEquals(DAY, TimeArgs.instant("2026-11-29T00:00:00Z", "--from"));
    assertEquals(DAY, TimeArgs.instant("2026-11-29", "--from"));
    assertEquals(DAY, TimeArgs.instant("2026-11-29T01:00:00+01:00", "--from"));
    assertEquals(DAY, TimeArgs.instant("2026-11-29T00:00", "--from"));
    assertEquals(DAY + 1, TimeArgs.instant("2026-11-29T00:00:00.001Z", "--from"));
    assertEquals(DAY, TimeArgs.instant(Long.toString(DAY), "--from"));
    assertEquals(-5, TimeArgs.instant("-5", "--from"));
    String bad = usage(() -> TimeArgs.instant("yesterday", "--to"));
    assertTrue(bad.startsWith("Invalid --to 'yesterday': expected epoch millis"), bad);
    assertTrue(usage(() -> TimeArgs.instant(null, "--from")).startsWith("Missing --from: "));
  }

  @Test
  void bucketSizesParseShortAndIsoForms() {
    assertEquals(3_600_000L, TimeArgs.duration("1h", "--bucket"));
    assertEquals(86_400_000L, TimeArgs.duration("1d", "--bucket"));
    assertEquals(300_000L, TimeArgs.duration("PT5M", "--bucket"));
    assertEquals(300_000L, TimeArgs.duration("5m", "--bucket"));
    assertEquals(86_400_000L, TimeArgs.duration("P1D", "--bucket"));
    assertEquals(30_000L, TimeArgs.duration("30s", "--bucket"));
    assertEquals(250L, TimeArgs.duration("250ms", "--bucket"));
    for (String bad : List.of("0h", "1w", "h", "PT0S", "-1h", "PT-5M")) {
      assertThrows(RekeyException.class, () -> TimeArgs.duration(bad, "--bucket"), bad);
    }
  }

  @Test
  void dayIsThatUtcDay() {
    assertEquals(new TimeWindow(DAY, DAY + 86_400_000L), TimeArgs.window(null, null, "2026-11-29"));
    assertEquals(
        new TimeWindow(DAY, DAY + 60_000),
        TimeArgs.window("2026-11-29T00:00:00Z", Long.toString(DAY + 60_000), null));
    assertEquals(TimeWindow.ALL, TimeArgs.window(null, null, null));
    assertEquals(new TimeWindow(DAY, Long.MAX_VALUE), TimeArgs.window("2026-11-29", null, null));
    assertTrue(usage(() -> TimeArgs.window("1", null, "2026-11-29")).contains("either --day or"));
    assertTrue(usage(() -> TimeArgs.window(null, null, "29/11/2026")).contains("Invalid --day"));
    assertTrue(
        usage(() -> TimeArgs.window("2026-11-30", "2026-11-29", null))
            .contains("is not before --to"));
    assertTrue(usage(() -> TimeArgs.window("5", "5", null)).contains("is not before --to"));
  }
}

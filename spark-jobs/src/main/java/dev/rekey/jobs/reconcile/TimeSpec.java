package dev.rekey.jobs.reconcile;

import dev.rekey.jobs.common.TimeArgs;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the time options of reconcile: instants (ISO-8601 or epoch millis) and bucket sizes (1h,
 * 1d, PT5M).
 */
public final class TimeSpec {
  private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h|d)");

  private TimeSpec() {}

  /**
   * An instant as epoch millis: digits (epoch millis, may be negative), an ISO-8601 instant or
   * offset date-time ({@code 2026-11-29T00:00:00Z}), a local date-time or date read as UTC ({@code
   * 2026-11-29}).
   */
  public static long instant(String option, String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException(
          option + " is required: an ISO-8601 time (2026-11-29T00:00:00Z) or epoch millis");
    }
    return TimeArgs.parseInstant(text, option);
  }

  /**
   * A bucket size in millis: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 1d}, or
   * ISO-8601 {@code PT5M}, {@code P1D}.
   */
  public static long duration(String option, String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException(option + " is required: e.g. 1h, 1d, 5m or PT5M");
    }
    String s = text.trim();
    long millis;
    Matcher m = SHORT.matcher(s.toLowerCase(Locale.ROOT));
    try {
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        millis =
            switch (m.group(2)) {
              case "ms" -> n;
              case "s" -> Math.multiplyExact(n, 1000L);
              case "m" -> Math.multiplyExact(n, 60_000L);
              case "h" -> Math.multiplyExact(n, 3_600_000L);
              default -> Math.multiplyExact(n, 86_400_000L);
            };
      } else {
        millis = Duration.parse(s.toUpperCase(Locale.ROOT)).toMillis();
      }
    } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
      throw new IllegalArgumentException(
          "Invalid "
              + option
              + " '"
              + text
              + "': expected a size such as 1h, 1d, 5m, 30s or ISO-8601 PT5M, P1D");
    }
    if (millis <= 0) {
      throw new IllegalArgumentException(
          "Invalid " + option + " '" + text + "': the bucket size must be positive");
    }
    return millis;
  }

  /** ISO-8601 UTC text for reports, e.g. {@code 2026-11-29T01:00:00Z}. */
  public static String iso(long millis) {
    return Instant.ofEpochMilli(millis).toString();
  }
}

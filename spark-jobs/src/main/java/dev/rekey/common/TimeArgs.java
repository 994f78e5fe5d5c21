package dev.rekey.common;

import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one reading of time options shared by every command: instants ({@code --from}, {@code --to}),
 * days ({@code --day}) and sizes ({@code --bucket}). Malformed text is a usage error (exit 2)
 * naming the option, the text and the accepted forms.
 */
public final class TimeArgs {
  private static final Pattern SIZE = Pattern.compile("(\\d+)(ms|s|m|h|d)");

  private TimeArgs() {}

  /**
   * Epoch millis, or ISO-8601: {@code 2026-11-29T10:15:30Z}, with an offset ({@code +01:00}),
   * without a zone (read as UTC), or a date alone (its UTC midnight).
   */
  public static long instant(String text, String option) {
    if (text == null || text.isBlank()) {
      throw RekeyException.usage(
          "Missing " + option + ": give an ISO-8601 time (2026-11-29T00:00:00Z) or epoch millis");
    }
    String s = text.trim();
    if (s.matches("-?\\d+")) {
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException e) {
        throw RekeyException.usage("Invalid %s '%s': epoch millis out of range", option, text);
      }
    }
    try {
      return OffsetDateTime.parse(s).toInstant().toEpochMilli();
    } catch (DateTimeParseException ignored) {
      // try the next shape
    }
    try {
      return LocalDateTime.parse(s).toInstant(ZoneOffset.UTC).toEpochMilli();
    } catch (DateTimeParseException ignored) {
      // try the next shape
    }
    try {
      return LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      throw RekeyException.usage(
          "Invalid %s '%s': expected epoch millis (1795910400000) or ISO-8601"
              + " (2026-11-29T00:00:00Z, 2026-11-29T01:00+01:00, 2026-11-29; no zone"
              + " means UTC)",
          option, text);
    }
  }

  /**
   * [from, to) from optional --from/--to (an open end is 0 or the end of time), or the UTC --day
   * (which excludes them); all null: {@link TimeWindow#ALL}.
   */
  public static TimeWindow window(String from, String to, String day) {
    if (day != null) {
      if (from != null || to != null) {
        throw RekeyException.usage(
            "Give either --day or --from/--to, not both (--day "
                + day
                + " is [day 00:00Z, next day 00:00Z))");
      }
      return day(day, "--day");
    }
    return new TimeWindow(
        from == null ? TimeWindow.ALL.from() : instant(from, "--from"),
        to == null ? TimeWindow.ALL.to() : instant(to, "--to"));
  }

  /** The UTC day of a date like 2026-11-29: [day 00:00Z, next day 00:00Z). */
  public static TimeWindow day(String text, String option) {
    try {
      return TimeWindow.ofDay(LocalDate.parse(text.trim()));
    } catch (DateTimeParseException e) {
      throw RekeyException.usage(
          "Invalid %s '%s': expected a date like 2026-11-29 (the UTC day)", option, text);
    }
  }

  /**
   * A size in millis: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 1d}, or ISO-8601
   * {@code PT5M}, {@code P1D}.
   */
  public static long duration(String text, String option) {
    if (text == null || text.isBlank()) {
      throw RekeyException.usage("Missing " + option + ": give a size, e.g. 1h, 1d, 5m or PT5M");
    }
    String s = text.trim();
    long millis;
    Matcher m = SIZE.matcher(s.toLowerCase(Locale.ROOT));
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
      throw RekeyException.usage(
          "Invalid %s '%s': expected a size such as 1h, 1d, 5m, 30s or ISO-8601" + " PT5M, P1D",
          option, text);
    }
    if (millis <= 0) {
      throw RekeyException.usage("Invalid %s '%s': the size must be positive", option, text);
    }
    return millis;
  }
}

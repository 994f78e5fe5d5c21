package dev.rekey.jobs.common;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/** The one reading of a time option (--from, --to) shared by every job. */
public final class TimeArgs {
  private TimeArgs() {}

  /**
   * Epoch millis, or ISO-8601: {@code 2026-11-29T10:15:30Z}, with an offset ({@code +01:00}),
   * without a zone (read as UTC), or a date alone (its UTC midnight).
   *
   * @throws IllegalArgumentException naming the option, the text and the accepted forms
   */
  public static long parseInstant(String text, String option) {
    String s = text.trim();
    if (s.matches("-?\\d+")) {
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "Invalid " + option + " '" + text + "': epoch millis out of range");
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
      throw new IllegalArgumentException(
          "Invalid "
              + option
              + " '"
              + text
              + "': expected epoch millis "
              + "(1795910400000) or ISO-8601 (2026-11-29T00:00:00Z, 2026-11-29T01:00+01:00, 2026-11-29; no zone means UTC)");
    }
  }

  /** As {@link #parseInstant}, a usage error (exit 2) for the CLI. */
  public static long option(String text, String option) {
    try {
      return parseInstant(text, option);
    } catch (IllegalArgumentException e) {
      throw RekeyException.usage(e.getMessage());
    }
  }
}

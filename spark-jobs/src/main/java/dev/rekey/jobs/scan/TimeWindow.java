package dev.rekey.jobs.scan;

import dev.rekey.jobs.common.RekeyException;
import dev.rekey.jobs.common.TimeArgs;
import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * A half-open time window [from, to) in epoch millis, applied to cell timestamps by the scan
 * (HBase's {@code Scan.setTimeRange}) and handed to reports as {@code ${from}} / {@code ${to}}.
 */
public record TimeWindow(long from, long to) implements Serializable {
  /** Everything HBase can store: [0, Long.MAX_VALUE), HBase's own default time range. */
  public static final TimeWindow ALL = new TimeWindow(0, Long.MAX_VALUE);

  public TimeWindow {
    if (from < 0) {
      throw RekeyException.usage(
          "Invalid time window: --from "
              + from
              + " is before 1970 (HBase cell timestamps are"
              + " non-negative epoch millis)");
    }
    if (from >= to) {
      throw RekeyException.usage(
          "Invalid time window: --from "
              + Instant.ofEpochMilli(from)
              + " ("
              + from
              + ") is not before --to "
              + (to == Long.MAX_VALUE
                  ? "the end of time"
                  : Instant.ofEpochMilli(to) + " (" + to + ")")
              + "; the window is [from, to)");
    }
  }

  /** The UTC day: [day 00:00Z, day+1 00:00Z). */
  public static TimeWindow ofDay(LocalDate day) {
    long start = day.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
    return new TimeWindow(
        start, day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli());
  }

  public static TimeWindow ofDay(String day) {
    try {
      return ofDay(LocalDate.parse(day.trim()));
    } catch (DateTimeParseException e) {
      throw RekeyException.usage(
          "Invalid --day '" + day + "': expected a date like 2026-11-29 (the UTC day)");
    }
  }

  /**
   * Builds a window from the CLI's --from/--to/--day (all optional; --day excludes the other two).
   */
  public static TimeWindow fromOptions(String from, String to, String day) {
    if (day != null) {
      if (from != null || to != null) {
        throw RekeyException.usage(
            "Give either --day or --from/--to, not both (--day "
                + day
                + " is [day 00:00Z, "
                + "next day 00:00Z))");
      }
      return ofDay(day);
    }
    long f = from == null ? ALL.from() : parseInstant(from, "--from");
    long t = to == null ? ALL.to() : parseInstant(to, "--to");
    return new TimeWindow(f, t);
  }

  /** A --from/--to value: see {@link TimeArgs#parseInstant}; a usage error when malformed. */
  public static long parseInstant(String text, String option) {
    return TimeArgs.option(text, option);
  }

  public boolean isAll() {
    return equals(ALL);
  }

  @Override
  public String toString() {
    return isAll()
        ? "all time"
        : "["
            + Instant.ofEpochMilli(from)
            + ", "
            + (to == Long.MAX_VALUE ? "end of time" : Instant.ofEpochMilli(to).toString())
            + ")";
  }
}

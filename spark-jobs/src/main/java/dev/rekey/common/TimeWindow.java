package dev.rekey.common;

import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

/**
 * A half-open time range [from, to) in epoch millis: the one range type of every job. Scan and
 * backfill apply it to cell timestamps (HBase's {@code Scan.setTimeRange}), reconcile cuts it into
 * buckets, reports get it as {@code ${from}} / {@code ${to}}. Built from the command line by {@link
 * TimeArgs}.
 */
public record TimeWindow(long from, long to) implements Serializable {
  /** Everything HBase can store: [0, Long.MAX_VALUE), HBase's own default time range. */
  public static final TimeWindow ALL = new TimeWindow(0, Long.MAX_VALUE);

  public TimeWindow {
    if (from < 0) {
      throw RekeyException.usage(
          "Invalid time range: --from "
              + from
              + " is before 1970 (HBase cell timestamps are non-negative epoch millis)");
    }
    if (from >= to) {
      throw RekeyException.usage(
          "Invalid time range: --from %s is not before --to %s (give a --to after"
              + " --from; --to is exclusive)",
          text(from), text(to));
    }
  }

  /** The UTC day: [day 00:00Z, day+1 00:00Z). */
  public static TimeWindow ofDay(LocalDate day) {
    return new TimeWindow(
        day.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli(),
        day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli());
  }

  /** A --day value, e.g. 2026-11-29: see {@link TimeArgs#day}. */
  public static TimeWindow ofDay(String day) {
    return TimeArgs.day(day, "--day");
  }

  public boolean isAll() {
    return equals(ALL);
  }

  /** Whether {@code millis} is in [from, to). */
  public boolean contains(long millis) {
    return millis >= from && millis < to;
  }

  private static String text(long millis) {
    return millis == Long.MAX_VALUE ? "the end of time" : Instant.ofEpochMilli(millis).toString();
  }

  @Override
  public String toString() {
    return isAll()
        ? "all time"
        : "[" + text(from) + ", " + (to == Long.MAX_VALUE ? "end of time" : text(to)) + ")";
  }
}

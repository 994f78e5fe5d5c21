package dev.rekey.jobs.reconcile;

import java.time.Instant;

/** Times as reconcile's reports print them (parsing is {@code TimeArgs}'). */
public final class TimeSpec {
  private TimeSpec() {}

  /** ISO-8601 UTC text for reports, e.g. {@code 2026-11-29T01:00:00Z}. */
  public static String iso(long millis) {
    return Instant.ofEpochMilli(millis).toString();
  }
}

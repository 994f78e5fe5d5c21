package dev.rekey.jobs.repair;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.LongSupplier;

/**
 * Where a repair's time went, phase by phase in the order they ran (old-side snapshot, finding the
 * buckets, marker scan, compare, compaction wait, write, re-check), in seconds: repair.json's
 * {@code phases} and the summary's {@code time:} line. A phase that runs twice adds up. Not
 * thread-safe: the driver's.
 */
final class PhaseTimes {
  /** The phases' names, as printed and in repair.json. */
  static final String SNAPSHOT = "snapshot";

  static final String FIND = "find buckets";
  static final String MARKERS = "marker scan";
  static final String COMPARE = "compare";
  static final String COMPACT = "compaction";
  static final String WRITE = "write";
  static final String RECHECK = "re-check";

  /** The raw scan for delete markers that runs beside the compare ({@link EarlyCompaction}). */
  static final String EARLY_SCAN = "marker scan beside the compare";

  private final LongSupplier clock;
  private final Map<String, Long> nanos = new LinkedHashMap<>();
  private String running;
  private long since;

  PhaseTimes() {
    this(System::nanoTime);
  }

  /** With a clock in nanoseconds (tests give their own). */
  PhaseTimes(LongSupplier clock) {
    this.clock = clock;
  }

  /** Starts {@code phase}, ending the one running (if any). */
  void start(String phase) {
    long now = clock.getAsLong();
    stopAt(now);
    running = phase;
    since = now;
  }

  /** Ends the running phase (if any). */
  void stop() {
    stopAt(clock.getAsLong());
  }

  private void stopAt(long now) {
    if (running != null) {
      nanos.merge(running, now - since, Long::sum);
      running = null;
    }
  }

  /** Adds a phase's time measured elsewhere (e.g. a compaction waited for in the background). */
  void add(String phase, long elapsedNanos) {
    nanos.merge(phase, elapsedNanos, Long::sum);
  }

  /** Phase → seconds, in the order the phases first ran. */
  Map<String, Double> seconds() {
    Map<String, Double> out = new LinkedHashMap<>();
    nanos.forEach((k, v) -> out.put(k, Math.round(v / 1e8) / 10.0));
    return out;
  }

  /** "snapshot 0.4 s, find buckets 20.1 s, ..." ("" when no phase ran). */
  static String describe(Map<String, Double> seconds) {
    StringJoiner j = new StringJoiner(", ");
    seconds.forEach((k, v) -> j.add(String.format(Locale.ROOT, "%s %.1f s", k, v)));
    return j.toString();
  }
}

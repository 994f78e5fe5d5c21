package dev.rekey.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.client.Result;

/**
 * The reads of a service during the switch from the old table to the new one, set by configuration:
 *
 * <ul>
 *   <li>{@link Mode#OLD}: serve from the old table (before the backfill is reconciled);
 *   <li>{@link Mode#SHADOW}: serve from the old table, read the new one too and compare by natural
 *       key and cells; mismatches are counted and the first few kept as samples ({@link #stats()});
 *       a failing new-table read is counted, never served;
 *   <li>{@link Mode#NEW}: serve from the new table.
 * </ul>
 *
 * The mode can change at run time ({@link #mode(Mode)}), e.g. from a config reload. So can the
 * share of SHADOW reads that are compared ({@link #shadowFraction(double)}, see {@link
 * ShadowSample}): a read not compared is served from the old table and counted as skipped, so
 * {@code shadowReads + skippedShadowReads} is every read made in SHADOW. Thread-safe.
 */
public final class ReadSwitch {
  /** Where reads are served from. */
  public enum Mode {
    OLD,
    NEW,
    SHADOW
  }

  private final LayoutReader old;
  private final LayoutReader next;
  private final int sampleLimit;
  private volatile Mode mode;
  private final AtomicLong reads = new AtomicLong();
  private final AtomicLong shadowReads = new AtomicLong();
  private final AtomicLong mismatchedReads = new AtomicLong();
  private final AtomicLong mismatchedRows = new AtomicLong();
  private final AtomicLong shadowErrors = new AtomicLong();
  private final AtomicLong skippedShadowReads = new AtomicLong();
  private final AtomicReference<Sampling> sampling =
      new AtomicReference<>(new Sampling(ShadowSample.ALL));
  private final List<String> samples = new ArrayList<>();

  public ReadSwitch(LayoutReader old, LayoutReader next, Mode mode) {
    this(old, next, mode, 20);
  }

  /**
   * @param sampleLimit mismatch descriptions kept (the first ones; counts go on)
   */
  public ReadSwitch(LayoutReader old, LayoutReader next, Mode mode, int sampleLimit) {
    this.old = old;
    this.next = next;
    this.mode = mode;
    this.sampleLimit = sampleLimit;
  }

  public Mode mode() {
    return mode;
  }

  /** The new table's reader (where NEW serves from): {@link ReadRoutes} routes by its layout. */
  LayoutReader next() {
    return next;
  }

  public void mode(Mode m) {
    this.mode = m;
  }

  /** The share of SHADOW reads compared with the new table now. */
  public double shadowFraction() {
    return sampling.get().sample.fraction();
  }

  /**
   * Compares this share of SHADOW reads from now on (0 to 1; 1, the default, compares every read).
   * Safe while reads run, e.g. from a config reload; the spacing restarts from the change.
   *
   * @throws IllegalArgumentException outside [0, 1]
   */
  public void shadowFraction(double fraction) {
    sampling.set(new Sampling(new ShadowSample(fraction)));
  }

  /** Whether this SHADOW read is compared; counts it as skipped when not. */
  private boolean compareThisRead() {
    if (sampling.get().next()) {
      shadowReads.incrementAndGet();
      return true;
    }
    skippedShadowReads.incrementAndGet();
    return false;
  }

  /** A sample with its own count of the reads it was asked about. */
  private static final class Sampling {
    final ShadowSample sample;
    final AtomicLong seen = new AtomicLong();

    Sampling(ShadowSample sample) {
      this.sample = sample;
    }

    boolean next() {
      return sample.compares(seen.getAndIncrement());
    }
  }

  /** The row of a natural key from the table the mode serves (SHADOW: old, compared with new). */
  public Optional<Result> get(Map<String, ?> fields) throws IOException {
    reads.incrementAndGet();
    Mode m = mode;
    if (m == Mode.NEW) {
      return next.get(fields);
    }
    Optional<Result> served = old.get(fields);
    if (m == Mode.SHADOW && compareThisRead()) {
      try {
        Optional<Result> shadow = next.get(fields);
        String a = served.map(RowContent::cells).orElse(null);
        String b = shadow.map(RowContent::cells).orElse(null);
        if (a == null ? b != null : !a.equals(b)) {
          mismatchedReads.incrementAndGet();
          mismatchedRows.incrementAndGet();
          sample(
              String.format(
                  "get %s: %s",
                  fields, a == null ? "only in new" : b == null ? "only in old" : "cells differ"));
        }
      } catch (IOException | RuntimeException e) {
        shadowErrors.incrementAndGet();
        sample("get " + fields + ": new table read failed: " + e.getMessage());
      }
    }
    return served;
  }

  /**
   * The rows of a range read from the table the mode serves (SHADOW: old, compared row by row with
   * new).
   */
  public List<Result> scan(ReadQuery query) {
    reads.incrementAndGet();
    Mode m = mode;
    if (m == Mode.NEW) {
      return next.scan(query);
    }
    List<Result> served = old.scan(query);
    if (m == Mode.SHADOW && compareThisRead()) {
      try {
        compare(query, served, next.scan(query));
      } catch (RuntimeException e) {
        shadowErrors.incrementAndGet();
        sample("scan " + query + ": new table read failed: " + e.getMessage());
      }
    }
    return served;
  }

  private void compare(ReadQuery query, List<Result> oldRows, List<Result> newRows) {
    Map<String, String> a = RowContent.byNaturalKey(old.layout(), oldRows);
    Map<String, String> b = RowContent.byNaturalKey(next.layout(), newRows);
    long bad = 0;
    for (Map.Entry<String, String> e : a.entrySet()) {
      String other = b.get(e.getKey());
      if (other == null || !other.equals(e.getValue())) {
        bad++;
        sample(
            String.format(
                "scan %s: %s %s",
                query, e.getKey(), other == null ? "only in old" : "cells differ"));
      }
    }
    for (String k : b.keySet()) {
      if (!a.containsKey(k)) {
        bad++;
        sample("scan " + query + ": " + k + " only in new");
      }
    }
    if (bad > 0) {
      mismatchedReads.incrementAndGet();
      mismatchedRows.addAndGet(bad);
    }
  }

  private void sample(String s) {
    synchronized (samples) {
      if (samples.size() < sampleLimit) {
        samples.add(s);
      }
    }
  }

  public Stats stats() {
    synchronized (samples) {
      return new Stats(
          mode,
          reads.get(),
          shadowReads.get(),
          mismatchedReads.get(),
          mismatchedRows.get(),
          shadowErrors.get(),
          skippedShadowReads.get(),
          List.copyOf(samples));
    }
  }

  /**
   * Counters since the switch was made.
   *
   * @param reads reads served
   * @param shadowReads reads also made on the new table and compared (SHADOW)
   * @param mismatchedReads shadow reads whose answers differed
   * @param mismatchedRows rows missing on one side or with different cells
   * @param shadowErrors new-table reads that failed (not served, not compared)
   * @param skippedShadowReads SHADOW reads served from the old table without a comparison, left out
   *     by the sampled fraction ({@link #shadowFraction(double)})
   * @param samples the first mismatch descriptions
   */
  public record Stats(
      Mode mode,
      long reads,
      long shadowReads,
      long mismatchedReads,
      long mismatchedRows,
      long shadowErrors,
      long skippedShadowReads,
      List<String> samples) {
    /** True when every shadow read so far agreed and none failed. */
    public boolean agreed() {
      return mismatchedReads == 0 && shadowErrors == 0;
    }

    public String line() {
      return String.format(
          "mode %s: %,d reads, %,d shadow reads, %,d mismatched (%,d rows), %,d new-table errors,"
              + " %,d not compared (sampled out)",
          mode,
          reads,
          shadowReads,
          mismatchedReads,
          mismatchedRows,
          shadowErrors,
          skippedShadowReads);
    }
  }
}

package dev.rekey.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
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
 * The mode can change at run time ({@link #mode(Mode)}), e.g. from a config reload. Thread-safe.
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

  /** The row of a natural key from the table the mode serves (SHADOW: old, compared with new). */
  public Optional<Result> get(Map<String, ?> fields) throws IOException {
    reads.incrementAndGet();
    Mode m = mode;
    if (m == Mode.NEW) {
      return next.get(fields);
    }
    Optional<Result> served = old.get(fields);
    if (m == Mode.SHADOW) {
      shadowReads.incrementAndGet();
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
    if (m == Mode.SHADOW) {
      shadowReads.incrementAndGet();
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
          List.copyOf(samples));
    }
  }

  /**
   * Counters since the switch was made.
   *
   * @param reads reads served
   * @param shadowReads reads also made on the new table (SHADOW)
   * @param mismatchedReads shadow reads whose answers differed
   * @param mismatchedRows rows missing on one side or with different cells
   * @param shadowErrors new-table reads that failed (not served, not compared)
   * @param samples the first mismatch descriptions
   */
  public record Stats(
      Mode mode,
      long reads,
      long shadowReads,
      long mismatchedReads,
      long mismatchedRows,
      long shadowErrors,
      List<String> samples) {
    /** True when every shadow read so far agreed and none failed. */
    public boolean agreed() {
      return mismatchedReads == 0 && shadowErrors == 0;
    }

    public String line() {
      return String.format(
          "mode %s: %,d reads, %,d shadow reads, %,d mismatched (%,d rows), %,d new-table errors",
          mode, reads, shadowReads, mismatchedReads, mismatchedRows, shadowErrors);
    }
  }
}

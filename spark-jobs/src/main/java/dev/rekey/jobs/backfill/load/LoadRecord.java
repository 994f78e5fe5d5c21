package dev.rekey.jobs.backfill.load;

import dev.rekey.common.TimeWindow;
import dev.rekey.jobs.backfill.staging.Manifest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One backfill's load of a snapshot into a target table, kept in the target's descriptor ({@link
 * LoadRecords}) so that every later run of that target sees it, whatever its staging dir. A run is
 * one write of HFiles: its staging dir and the manifest's {@code writtenAt}; a {@code --resume}
 * continues the same run.
 *
 * @param snapshotCreated the snapshot's creation time (millis): a snapshot deleted and taken again
 *     under the same name is another snapshot
 * @param recordedAt when this record was last written (the load began, or was verified)
 * @param owner the process that loaded ({@code host pid start})
 * @param shard the shard of the snapshot's regions loaded ({@code i/N}), or null for all of them
 */
public record LoadRecord(
    String snapshot,
    long snapshotCreated,
    String staging,
    String writtenAt,
    String recordedAt,
    State state,
    long rows,
    long fromMillis,
    long toMillis,
    List<String> families,
    String owner,
    String shard) {

  /** How far the load got. */
  public enum State {
    /** The load began and did not end (killed, or failed): some regions may be in the table. */
    LOADING,
    /** Every region loaded and verified. */
    VERIFIED,
    /** Every region loaded; the verification found cells missing (exit 3). */
    NOT_VERIFIED
  }

  public LoadRecord {
    families = families == null ? List.of() : List.copyOf(families);
  }

  /** A record of a whole snapshot's load (no shard). */
  public LoadRecord(
      String snapshot,
      long snapshotCreated,
      String staging,
      String writtenAt,
      String recordedAt,
      State state,
      long rows,
      long fromMillis,
      long toMillis,
      List<String> families,
      String owner) {
    this(
        snapshot,
        snapshotCreated,
        staging,
        writtenAt,
        recordedAt,
        state,
        rows,
        fromMillis,
        toMillis,
        families,
        owner,
        null);
  }

  /** The run of {@code m} (written into {@code staging}) loading from {@code snapshotCreated}. */
  public static LoadRecord of(
      Manifest m, String staging, long snapshotCreated, State state, String owner, Instant now) {
    return new LoadRecord(
        m.sourceSnapshot(),
        snapshotCreated,
        staging,
        m.writtenAt(),
        now.toString(),
        state,
        m.accounting().written(),
        m.fromMillis() == null ? 0 : m.fromMillis(),
        m.toMillis() == null ? Long.MAX_VALUE : m.toMillis(),
        m.families(),
        owner,
        m.shard());
  }

  public LoadRecord withState(State s, Instant now) {
    return new LoadRecord(
        snapshot,
        snapshotCreated,
        staging,
        writtenAt,
        now.toString(),
        s,
        rows,
        fromMillis,
        toMillis,
        families,
        owner,
        shard);
  }

  TimeWindow cellTime() {
    return new TimeWindow(fromMillis, toMillis);
  }

  /** Whether this run is the one written into {@code staging} at {@code writtenAt}. */
  public boolean isRun(String staging, String writtenAt) {
    return this.staging.equals(staging) && this.writtenAt.equals(writtenAt);
  }

  /**
   * Whether a load of the snapshot taken at {@code created}, cells in {@code window} of {@code
   * families} (empty: all), would load cells this run loaded: a backfill cut into time ranges or
   * families loads each part once, and none of them is a repeat of another.
   */
  public boolean overlaps(long created, TimeWindow window, List<String> families) {
    return overlaps(created, window, families, null);
  }

  /**
   * {@link #overlaps(long, TimeWindow, List)} for a shard of the snapshot's regions ({@code i/N},
   * null for all): two different shards of one cut (same N) hold different source regions and never
   * overlap; a whole load overlaps every shard, and shards of different cuts are taken to overlap
   * (their regions may).
   */
  public boolean overlaps(long created, TimeWindow window, List<String> families, String shard) {
    if (this.shard != null && shard != null && !this.shard.equals(shard)) {
      String[] mine = this.shard.split("/");
      String[] theirs = shard.split("/");
      if (mine.length == 2 && theirs.length == 2 && mine[1].equals(theirs[1])) {
        return false;
      }
    }
    boolean sameFamilies =
        this.families.isEmpty()
            || families.isEmpty()
            || !Collections.disjoint(this.families, families);
    return snapshotCreated == created
        && fromMillis < window.to()
        && window.from() < toMillis
        && sameFamilies;
  }

  /** The run, for messages: when, where its ledger is, how far it got. */
  public String describe() {
    String outcome =
        switch (state) {
          case LOADING -> "load not finished";
          case VERIFIED -> "verified";
          case NOT_VERIFIED -> "loaded, not verified";
        };
    return String.format(
        "the run%s recorded at %s (staging dir %s, %,d rows, %s%s)",
        shard == null ? "" : " of shard " + shard,
        recordedAt,
        staging,
        rows,
        outcome,
        owner == null ? "" : ", by " + owner);
  }

  /**
   * The records of a snapshot once {@code r} is recorded: it replaces its own run's record and any
   * of the same cells (a --load-again supersedes the run it repeated), and records of an earlier
   * snapshot of the same name are dropped (that snapshot is gone: nothing can repeat it).
   */
  public static List<LoadRecord> merged(List<LoadRecord> records, LoadRecord r) {
    List<LoadRecord> out = new ArrayList<>();
    for (LoadRecord e : records) {
      boolean sameCells =
          e.fromMillis == r.fromMillis
              && e.toMillis == r.toMillis
              && e.families.equals(r.families)
              && java.util.Objects.equals(e.shard, r.shard);
      if (e.snapshotCreated == r.snapshotCreated
          && !sameCells
          && !e.isRun(r.staging, r.writtenAt)) {
        out.add(e);
      }
    }
    out.add(r);
    return out;
  }
}

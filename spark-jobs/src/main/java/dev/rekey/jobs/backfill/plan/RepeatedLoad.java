package dev.rekey.jobs.backfill.plan;

import dev.rekey.common.TimeWindow;
import dev.rekey.jobs.backfill.load.LoadRecord;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Whether a backfill would load a snapshot into its target a second time, and what to do about it
 * (plan layer, pure). A repeated run (a retried scheduler job, a copy-pasted command) would load
 * every HFile again: the visible cells stay the same, but the table's store doubles until a major
 * compaction. So a run that finds a recorded load of the same snapshot (name and creation time) and
 * of overlapping cells is refused, unless it continues that very run ({@code --resume} on its
 * staging dir), loads nothing ({@code --dry-run}, {@code --no-load}: a note), or asks for it
 * ({@code --load-again}: a note).
 */
public final class RepeatedLoad {
  private RepeatedLoad() {}

  /** What the rule says of a run. */
  public enum Verdict {
    /** No earlier load of these cells, or this run continues it. */
    GO,
    /** Go on, and say what earlier load there is. */
    NOTE,
    /** Refuse: the run would load the cells again. */
    REFUSE
  }

  /**
   * @param message the note or the refusal (empty for {@link Verdict#GO})
   */
  public record Decision(Verdict verdict, Optional<LoadRecord> earlier, String message) {}

  /**
   * The run about to start.
   *
   * @param staging the staging dir, qualified as the records name it
   * @param resumedRun the {@code writtenAt} of the manifest a {@code --resume} continues, or null
   *     when the run writes its HFiles anew
   * @param shard the shard of the snapshot's regions ({@code i/N}), or null for all of them
   */
  public record Attempt(
      String table,
      String snapshot,
      long snapshotCreated,
      TimeWindow cellTime,
      List<String> families,
      String staging,
      String resumedRun,
      boolean dryRun,
      boolean noLoad,
      boolean loadAgain,
      String shard) {
    /** An attempt on the whole snapshot (no shard). */
    public Attempt(
        String table,
        String snapshot,
        long snapshotCreated,
        TimeWindow cellTime,
        List<String> families,
        String staging,
        String resumedRun,
        boolean dryRun,
        boolean noLoad,
        boolean loadAgain) {
      this(
          table,
          snapshot,
          snapshotCreated,
          cellTime,
          families,
          staging,
          resumedRun,
          dryRun,
          noLoad,
          loadAgain,
          null);
    }
  }

  private static Decision note(Optional<LoadRecord> earlier, String message) {
    return new Decision(Verdict.NOTE, earlier, message);
  }

  public static Decision decide(List<LoadRecord> records, Attempt a) {
    Optional<LoadRecord> found =
        records.stream()
            .filter(r -> r.overlaps(a.snapshotCreated(), a.cellTime(), a.families(), a.shard()))
            .max(Comparator.comparing(r -> Instant.parse(r.recordedAt())));
    if (found.isEmpty()) {
      return new Decision(Verdict.GO, found, "");
    }
    LoadRecord e = found.get();
    String loaded =
        String.format(
            "%ssnapshot %s (taken %s) was loaded into %s by %s",
            a.shard() == null ? "" : "shard " + a.shard() + " of ",
            a.snapshot(),
            Instant.ofEpochMilli(a.snapshotCreated()),
            a.table(),
            e.describe());
    if (a.resumedRun() != null && e.isRun(a.staging(), a.resumedRun())) {
      return new Decision(Verdict.GO, found, "");
    }
    if (a.dryRun()) {
      return note(
          found,
          String.format(
              "Note: %s; a backfill of it will be refused (--resume --staging %s checks that run;"
                  + " --load-again loads it a second time on purpose)",
              loaded, e.staging()));
    }
    if (a.loadAgain()) {
      return note(
          found,
          String.format(
              "Loading again on purpose (--load-again): %s; its cells go into the table a second"
                  + " time (reads are unchanged; the store holds them twice until a major"
                  + " compaction)",
              loaded));
    }
    if (a.noLoad()) {
      return note(
          found,
          String.format(
              "Note: %s; these HFiles are written but not loaded, and a --resume will load them"
                  + " only with --load-again",
              loaded));
    }
    String choices =
        String.format(
            e.state() == LoadRecord.State.LOADING
                ? "its load did not finish: rerun with --resume --staging %s to load the rest and"
                    + " verify it, or with --load-again to load everything a second time on"
                    + " purpose"
                : "rerun with --resume --staging %s to check it, or with --load-again to load it"
                    + " a second time on purpose",
            e.staging());
    String what =
        a.resumedRun() != null
            ? String.format("resume the backfill of %s in staging dir %s", a.table(), a.staging())
            : "backfill " + a.table();
    String why =
        a.resumedRun() != null
            ? String.format("%s, whose ledger is in staging dir %s", loaded, e.staging())
            : loaded;
    return new Decision(
        Verdict.REFUSE,
        found,
        String.format(
            "Cannot %s: %s; loading it again would put every cell in the table twice until a"
                + " major compaction (%s)",
            what, why, choices));
  }
}

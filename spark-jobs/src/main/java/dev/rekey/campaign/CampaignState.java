package dev.rekey.campaign;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The campaign's state file ({@code <state_dir>/state.json}, plan layer, pure): per source table,
 * the snapshot and shard count it was given, and every step's outcome as it ended — what a killed
 * campaign run again resumes from. Steps {@link Status#DONE} or {@link Status#DIFFERS} are not run
 * again; {@link Status#RUNNING} (a run killed in it) and {@link Status#FAILED} ones are, and each
 * step is safe to rerun: create-table accepts its table, a backfill resumes its ledger (and the
 * load records refuse a second load), reconcile only reads.
 *
 * <p>Immutable: {@link #with} returns the state with one step's record replaced.
 */
public record CampaignState(String schema, int version, String campaign, List<TableState> tables) {
  public static final String SCHEMA = "rekey.campaign.state";
  public static final int VERSION = 1;

  public CampaignState {
    tables = tables == null ? List.of() : List.copyOf(tables);
  }

  public static CampaignState empty(String campaign) {
    return new CampaignState(SCHEMA, VERSION, campaign, List.of());
  }

  /** How a step ended (or that it began and has not ended). */
  public enum Status {
    /** Began; a run killed in it left it so: run again. */
    RUNNING,
    /** Ended well. */
    DONE,
    /** Ended, and found a difference (reconcile) or cells missing (backfill): not run again. */
    DIFFERS,
    /** Ended with an error: run again. */
    FAILED;

    /** True when a later run keeps this outcome instead of running the step again. */
    public boolean ended() {
      return this == DONE || this == DIFFERS;
    }
  }

  /**
   * One step of one table.
   *
   * @param step the step's key ({@link StepKey#id()})
   * @param rows rows the step wrote or compared (null when it has none)
   * @param result a short outcome (created, verified, green, 2 buckets differ, ...)
   * @param detail the error, or where its report is
   */
  public record StepRecord(
      String step,
      Status status,
      String startedAt,
      String endedAt,
      Double seconds,
      Long rows,
      String result,
      String detail) {}

  /**
   * @param snapshot the snapshot the table's backfill, reconcile and repair read
   * @param shards the shard count decided when its backfill first began (kept for a rerun)
   */
  public record TableState(String id, String snapshot, Integer shards, List<StepRecord> steps) {
    public TableState {
      steps = steps == null ? List.of() : List.copyOf(steps);
    }

    public Optional<StepRecord> step(String id) {
      return steps.stream().filter(s -> s.step().equals(id)).findFirst();
    }

    TableState with(StepRecord r) {
      List<StepRecord> out = new ArrayList<>();
      boolean replaced = false;
      for (StepRecord s : steps) {
        if (s.step().equals(r.step())) {
          out.add(r);
          replaced = true;
        } else {
          out.add(s);
        }
      }
      if (!replaced) {
        out.add(r);
      }
      return new TableState(id, snapshot, shards, out);
    }
  }

  @JsonIgnore
  public Optional<TableState> table(String id) {
    return tables.stream().filter(t -> t.id().equals(id)).findFirst();
  }

  /** The state with table {@code id} replaced (or added). */
  public CampaignState with(TableState t) {
    List<TableState> out = new ArrayList<>();
    boolean replaced = false;
    for (TableState s : tables) {
      if (s.id().equals(t.id())) {
        out.add(t);
        replaced = true;
      } else {
        out.add(s);
      }
    }
    if (!replaced) {
      out.add(t);
    }
    return new CampaignState(schema, version, campaign, out);
  }

  /** The state with one step of table {@code id} recorded. */
  public CampaignState with(String id, StepRecord r) {
    TableState t = table(id).orElse(new TableState(id, null, null, List.of()));
    return with(t.with(r));
  }
}

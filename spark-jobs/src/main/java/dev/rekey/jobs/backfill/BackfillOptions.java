package dev.rekey.jobs.backfill;

import dev.rekey.common.RekeyException;
import dev.rekey.common.TableNames;
import dev.rekey.common.TimeWindow;
import dev.rekey.common.Versions;
import dev.rekey.jobs.backfill.plan.Shard;
import dev.rekey.jobs.backfill.plan.TierRequest;
import dev.rekey.jobs.backfill.write.Rekeyer;
import dev.rekey.jobs.guardrails.GuardrailMode;
import dev.rekey.jobs.guardrails.GuardrailRequest;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.targets.Target;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What to backfill, validated (plan layer). Build with {@link #builder()}; the constructor throws a
 * usage RekeyException naming the bad option.
 *
 * <p>A run has one or more {@link #targets()}, all fed from one read of the snapshot; {@link
 * #targetTable()} and {@link #targetLayout()} are the first. {@link #forTarget} gives one target's
 * share of the options (its table, layout and staging dir), which is what each {@link TargetRun}
 * holds.
 */
public record BackfillOptions(
    String sourceSnapshot,
    KeyLayout sourceLayout,
    String targetTable,
    KeyLayout targetLayout,
    TimeWindow cellTime,
    List<String> families,
    String staging,
    int splitsPerRegion,
    boolean dryRun,
    boolean noLoad,
    boolean resume,
    long maxQuarantined,
    Versions versions,
    boolean sortAlways,
    boolean verifyRows,
    boolean loadAgain,
    List<Target> targets,
    TierRequest timeTiers,
    GuardrailMode guardrails,
    GuardrailRequest guardrailLimits,
    Shard shard) {

  /** Default sub-partitions (HFile writers) per target region. */
  public static final int DEFAULT_SPLITS_PER_REGION = 1;

  /** Default quarantine threshold: any undecodable source key fails the backfill. */
  public static final long DEFAULT_MAX_QUARANTINED = 0;

  /** Every check a bad option fails, here so that no BackfillOptions exists unchecked. */
  public BackfillOptions {
    families = families == null ? List.of() : List.copyOf(families);
    guardrails = guardrails == null ? GuardrailMode.OFF : guardrails;
    guardrailLimits = guardrailLimits == null ? GuardrailRequest.CLUSTER : guardrailLimits;
    if (targets == null || targets.isEmpty()) {
      targets =
          targetTable == null && targetLayout == null
              ? List.of()
              : List.of(Target.of(targetTable, targetLayout));
    } else {
      targets = List.copyOf(targets);
      targetTable = targets.get(0).table();
      targetLayout = targets.get(0).layout();
    }
    require(sourceSnapshot, "--source-snapshot");
    require(sourceLayout, "--source-layout");
    require(targetTable, "--target-table (or --target TABLE=LAYOUT)");
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (Target t : targets) {
      require(t.table(), "--target-table (or --target TABLE=LAYOUT)");
      require(t.layout(), "--target-layout (or --target TABLE=LAYOUT)");
      TableNames.parse(t.table(), "backfill");
      if (!seen.add(t.table())) {
        throw RekeyException.usage(
            "Cannot backfill %s: it is given twice as a target (give each --target table once)",
            t.table());
      }
    }
    if (splitsPerRegion < 1 || splitsPerRegion > 1024) {
      throw RekeyException.usage(
          "Cannot backfill %s: --splits-per-region must be in 1..1024, got %d",
          targetTable, splitsPerRegion);
    }
    if (maxQuarantined < 0) {
      throw RekeyException.usage(
          "Cannot backfill %s: --max-quarantined must be ≥ 0, got %d", targetTable, maxQuarantined);
    }
    if (dryRun && resume) {
      throw RekeyException.usage(
          "Cannot backfill %s: --dry-run and --resume exclude each other", targetTable);
    }
    for (Target t : targets) {
      Optional<String> misfit = new Rekeyer(sourceLayout, t.layout()).check();
      if (misfit.isPresent()) {
        throw RekeyException.usage(
            "Cannot backfill %s from snapshot %s: %s (%s)",
            t.table(),
            sourceSnapshot,
            misfit.get(),
            "pick a --target-layout whose fields the --source-layout has");
      }
    }
    for (String f : families) {
      if (f.isBlank()) {
        throw RekeyException.usage(
            "Cannot backfill %s: empty family name in --families", targetTable);
      }
    }
  }

  private static void require(Object v, String option) {
    if (v == null || Objects.toString(v).isBlank()) {
      throw RekeyException.usage("Cannot backfill: %s is required", option);
    }
  }

  /**
   * The staging dir, under a shard's run its own subdir ({@code <dir>/shard-i-of-N}): each shard of
   * a backfill keeps its own ledger, lock and manifest.
   */
  private String shardDir(String dir) {
    return dir == null || shard == null ? dir : dir + "/" + shard.folderName();
  }

  /** True when the run feeds more than one target table from its read. */
  public boolean severalTargets() {
    return targets.size() > 1;
  }

  /**
   * One target's share of the options: its table and layout, and its own staging dir — with several
   * targets, {@code <--staging>/backfill-<table>} (the default staging dir is per table already);
   * with one, the options as they are.
   */
  public BackfillOptions forTarget(Target t) {
    if (!severalTargets()) {
      return this;
    }
    String dir = staging == null ? null : staging + "/backfill-" + t.folderName();
    return new Builder(this).staging(dir).target(t).build();
  }

  /**
   * The staging dir: the one given, else {@code <default>/backfill-<table>} under the caller's
   * default root.
   */
  public String stagingOr(String defaultRoot) {
    return shardDir(
        staging != null ? staging : defaultRoot + "/backfill-" + Target.folderName(targetTable));
  }

  public static Builder builder() {
    return new Builder();
  }

  public static final class Builder {
    private String sourceSnapshot;
    private KeyLayout sourceLayout;
    private String targetTable;
    private KeyLayout targetLayout;
    private TimeWindow cellTime = TimeWindow.ALL;
    private List<String> families = List.of();
    private String staging;
    private int splitsPerRegion = DEFAULT_SPLITS_PER_REGION;
    private boolean dryRun;
    private boolean noLoad;
    private boolean resume;
    private long maxQuarantined = DEFAULT_MAX_QUARANTINED;
    private Versions versions = Versions.ALL;
    private boolean sortAlways;
    private boolean verifyRows;
    private boolean loadAgain;
    private final List<Target> targets = new java.util.ArrayList<>();
    private TierRequest timeTiers;
    private GuardrailMode guardrails = GuardrailMode.OFF;
    private GuardrailRequest guardrailLimits = GuardrailRequest.CLUSTER;

    /**
     * Check every source row against the guardrails before the write ({@code --guardrails}): {@link
     * GuardrailMode#STRICT} refuses to start when anything is found; the limits given beside the
     * cluster's (null: the cluster's).
     */
    public Builder guardrails(GuardrailMode mode, GuardrailRequest limits) {
      this.guardrails = mode;
      this.guardrailLimits = limits;
      return this;
    }

    private Shard shard;

    /**
     * Read, write and load only shard i of N of the source snapshot's regions ({@code --shard i/N},
     * {@link Shard}); null (default) for the whole snapshot.
     */
    public Builder shard(Shard s) {
      this.shard = s;
      return this;
    }

    /**
     * Write one HFile per time tier per region slot ({@code --time-tiers}); null (default) for one
     * file per slot.
     */
    public Builder timeTiers(TierRequest t) {
      this.timeTiers = t;
      return this;
    }

    private Builder() {}

    /** A builder holding these options but their targets, to build a variant of them. */
    private Builder(BackfillOptions o) {
      sourceSnapshot = o.sourceSnapshot;
      sourceLayout = o.sourceLayout;
      cellTime = o.cellTime;
      families = o.families;
      staging = o.staging;
      splitsPerRegion = o.splitsPerRegion;
      dryRun = o.dryRun;
      noLoad = o.noLoad;
      resume = o.resume;
      maxQuarantined = o.maxQuarantined;
      versions = o.versions;
      sortAlways = o.sortAlways;
      verifyRows = o.verifyRows;
      loadAgain = o.loadAgain;
      timeTiers = o.timeTiers;
      guardrails = o.guardrails;
      guardrailLimits = o.guardrailLimits;
      shard = o.shard;
    }

    public Builder sourceSnapshot(String s) {
      this.sourceSnapshot = s;
      return this;
    }

    public Builder sourceLayout(KeyLayout l) {
      this.sourceLayout = l;
      return this;
    }

    public Builder targetTable(String t) {
      this.targetTable = t;
      return this;
    }

    public Builder targetLayout(KeyLayout l) {
      this.targetLayout = l;
      return this;
    }

    /**
     * Adds a target table with its layout; call once per target ({@code --target TABLE=LAYOUT}).
     * Every target is fed from the same read of the snapshot. With targets given, {@link
     * #targetTable}/{@link #targetLayout} must not be (the CLI's --target-table/--target-layout are
     * one target).
     */
    public Builder target(String table, KeyLayout layout) {
      return target(Target.of(table, layout));
    }

    /** {@link #target(String, KeyLayout)} of a {@code --target} value. */
    public Builder target(Target t) {
      targets.add(t);
      return this;
    }

    /** Copy only cells whose timestamp is in [from, to); default all. */
    public Builder cellTime(TimeWindow w) {
      this.cellTime = w;
      return this;
    }

    public Builder families(List<String> f) {
      this.families = f == null ? List.of() : f;
      return this;
    }

    public Builder staging(String dir) {
      this.staging = dir;
      return this;
    }

    public Builder splitsPerRegion(int k) {
      this.splitsPerRegion = k;
      return this;
    }

    public Builder dryRun(boolean b) {
      this.dryRun = b;
      return this;
    }

    public Builder noLoad(boolean b) {
      this.noLoad = b;
      return this;
    }

    public Builder resume(boolean b) {
      this.resume = b;
      return this;
    }

    public Builder maxQuarantined(long n) {
      this.maxQuarantined = n;
      return this;
    }

    /**
     * Versions per column to copy (default all), capped per family at the target family's VERSIONS.
     */
    public Builder versions(Versions v) {
      this.versions = v == null ? Versions.ALL : v;
      return this;
    }

    /**
     * Always take the sorted path, even where the layouts keep the source's order (benchmarks,
     * checks).
     */
    public Builder sortAlways(boolean b) {
      this.sortAlways = b;
      return this;
    }

    /**
     * Verify every cell of the loaded regions against a snapshot of the target (a second full read)
     * instead of checking that the loaded HFiles are store files of the table with their cell
     * counts.
     */
    public Builder verifyRows(boolean b) {
      this.verifyRows = b;
      return this;
    }

    /**
     * Load even though the target's records show a load of the same snapshot's cells already (the
     * store then holds them twice until a major compaction): never by accident, only when asked.
     */
    public Builder loadAgain(boolean b) {
      this.loadAgain = b;
      return this;
    }

    public BackfillOptions build() {
      if (!targets.isEmpty() && (targetTable != null || targetLayout != null)) {
        throw RekeyException.usage(
            "Cannot backfill: give the targets either as --target TABLE=LAYOUT (repeatable) or as"
                + " --target-table T --target-layout L, not both");
      }
      return new BackfillOptions(
          sourceSnapshot,
          sourceLayout,
          targetTable,
          targetLayout,
          cellTime,
          families,
          staging,
          splitsPerRegion,
          dryRun,
          noLoad,
          resume,
          maxQuarantined,
          versions,
          sortAlways,
          verifyRows,
          loadAgain,
          targets,
          timeTiers,
          guardrails,
          guardrailLimits,
          shard);
    }
  }
}

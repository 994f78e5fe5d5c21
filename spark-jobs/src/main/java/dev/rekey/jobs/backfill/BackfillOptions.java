package dev.rekey.jobs.backfill;

import dev.rekey.jobs.common.RekeyException;
import dev.rekey.jobs.common.TableNames;
import dev.rekey.jobs.common.TimeWindow;
import dev.rekey.jobs.common.Versions;
import dev.rekey.rowkey.KeyLayout;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What to backfill, validated (plan layer). Build with {@link #builder()}; the constructor throws a
 * usage RekeyException naming the bad option.
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
    boolean loadAgain) {

  /** Default sub-partitions (HFile writers) per target region. */
  public static final int DEFAULT_SPLITS_PER_REGION = 1;

  /** Default quarantine threshold: any undecodable source key fails the backfill. */
  public static final long DEFAULT_MAX_QUARANTINED = 0;

  /** Every check a bad option fails, here so that no BackfillOptions exists unchecked. */
  public BackfillOptions {
    families = families == null ? List.of() : List.copyOf(families);
    require(sourceSnapshot, "--source-snapshot");
    require(sourceLayout, "--source-layout");
    require(targetTable, "--target-table");
    require(targetLayout, "--target-layout");
    TableNames.parse(targetTable, "backfill");
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
    Rekeyer r = new Rekeyer(sourceLayout, targetLayout);
    Optional<String> misfit = r.check();
    if (misfit.isPresent()) {
      throw RekeyException.usage(
          "Cannot backfill %s from snapshot %s: %s (%s)",
          targetTable,
          sourceSnapshot,
          misfit.get(),
          "pick a --target-layout whose fields the --source-layout has");
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
   * The staging dir: the one given, else {@code <default>/backfill-<table>} under the caller's
   * default root.
   */
  public String stagingOr(String defaultRoot) {
    return staging != null ? staging : defaultRoot + "/backfill-" + targetTable.replace(':', '_');
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
          loadAgain);
    }
  }
}

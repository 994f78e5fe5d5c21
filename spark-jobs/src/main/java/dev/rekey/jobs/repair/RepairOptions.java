package dev.rekey.jobs.repair;

import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeArgs;
import dev.rekey.common.TimeWindow;
import dev.rekey.jobs.backfill.write.Rekeyer;
import dev.rekey.jobs.reconcile.NaturalKey;
import dev.rekey.jobs.reconcile.SideSpec;
import dev.rekey.jobs.reconcile.SidesBuilder;
import dev.rekey.jobs.reconcile.TimeBuckets;
import dev.rekey.jobs.reconcile.TimeSource;
import dev.rekey.read.Source;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.targets.Target;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Validated options of a repair run. Build with {@link #builder()}; {@link Builder#build()} throws
 * a usage RekeyException (exit 2). Driver-side only.
 *
 * @param old the old side: a snapshot, or a live table read through a snapshot the run takes
 * @param neu the new side: the live table repaired (the first of {@code news})
 * @param buckets the time buckets of the run (reconcile's)
 * @param onlyBuckets the buckets to repair (indexes of {@code buckets}); null = compare every
 *     bucket first, as reconcile does
 * @param fromReconcile the reconcile report {@code onlyBuckets} come from, or null
 * @param dryRun where to write the mutations instead of applying them, or null
 * @param out where repair.json, repair.html and the checkpoint go
 * @param apply a dry run's mutation file to replay instead of comparing first, or null (the sides,
 *     buckets and time then come from the file)
 * @param staging the HFile path's staging dir (any filesystem the RegionServers read), or null for
 *     {@code ~/.rekey-staging/repair-<table>}
 * @param news every new table repaired against the old side ({@code --target TABLE=LAYOUT},
 *     repeatable): a run of several is one run per table ({@link #forTarget}), one old snapshot
 */
public record RepairOptions(
    SideSpec old,
    SideSpec neu,
    TimeBuckets buckets,
    TimeSource time,
    NaturalKey naturalKey,
    Set<Integer> onlyBuckets,
    Path fromReconcile,
    boolean deleteExtra,
    boolean compactIfMasked,
    Duration compactWait,
    Path dryRun,
    long maxPutCells,
    boolean resume,
    Path out,
    Path apply,
    String staging,
    List<SideSpec> news) {

  /** {@link #DEFAULT_COMPACT_WAIT} in seconds, for the CLI's default. */
  public static final long DEFAULT_COMPACT_WAIT_SECONDS = 300;

  /** How long --compact-if-masked waits for the delete markers to be compacted away. */
  public static final Duration DEFAULT_COMPACT_WAIT =
      Duration.ofSeconds(DEFAULT_COMPACT_WAIT_SECONDS);

  /** Where the reports go without --out or --from-reconcile: reconcile's default. */
  public static final Path DEFAULT_OUT = Path.of("reconcile-report");

  public RepairOptions {
    onlyBuckets = onlyBuckets == null ? null : Set.copyOf(new TreeSet<>(onlyBuckets));
    news = news == null || news.isEmpty() ? List.of(neu) : List.copyOf(news);
  }

  /** True when the run repairs more than one new table. */
  public boolean severalTargets() {
    return news.size() > 1;
  }

  /**
   * One new table's run of several: its side, natural key and time, and its own report dir ({@code
   * <out>/<table>}), mutation file ({@code <name>.<table>.jsonl}) and staging dir; the old side as
   * given ({@code old}: the snapshot the run took of a live old table, shared by every target).
   */
  public RepairOptions forTarget(SideSpec n, SideSpec oldSide) {
    String t = Target.folderName(n.source().name());
    return new RepairOptions(
        oldSide,
        n,
        buckets,
        TimeSource.resolve(time.describe(), oldSide.layout(), n.layout()),
        NaturalKey.common(oldSide.layout(), n.layout()),
        onlyBuckets,
        fromReconcile,
        deleteExtra,
        compactIfMasked,
        compactWait,
        dryRun == null ? null : perTable(dryRun, t),
        maxPutCells,
        resume,
        out.resolve(t),
        apply,
        staging == null ? null : staging + "/repair-" + t,
        List.of(n));
  }

  /** m.jsonl → m.TABLE.jsonl, beside it. */
  private static Path perTable(Path file, String table) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    String renamed =
        dot > 0 ? name.substring(0, dot) + "." + table + name.substring(dot) : name + "." + table;
    return file.resolveSibling(renamed);
  }

  /** The new table's name. */
  public String table() {
    return neu.source().name();
  }

  public static Builder builder() {
    return new Builder();
  }

  public static final class Builder extends SidesBuilder<Builder> {
    private Path fromReconcile;
    private boolean deleteExtra;
    private boolean compactIfMasked;
    private Duration compactWait = DEFAULT_COMPACT_WAIT;
    private Path dryRun;
    private long maxPutCells = RepairPath.DEFAULT_MAX_PUT_CELLS;
    private boolean resume;
    private Path out;
    private String staging;
    private Path apply;
    private Set<Integer> applyBuckets;
    private final List<SideSpec> news = new java.util.ArrayList<>();

    /**
     * One more new table to repair against the old side ({@code --target TABLE=LAYOUT},
     * repeatable); instead of {@link #neu}.
     */
    public Builder target(SideSpec v) {
      news.add(v);
      return this;
    }

    /** A reconcile.json (or the directory holding one): its mismatched buckets are repaired. */
    public Builder fromReconcile(Path v) {
      fromReconcile = v;
      return this;
    }

    public Builder deleteExtra(boolean v) {
      deleteExtra = v;
      return this;
    }

    public Builder compactIfMasked(boolean v) {
      compactIfMasked = v;
      return this;
    }

    public Builder compactWait(Duration v) {
      compactWait = v;
      return this;
    }

    public Builder dryRun(Path mutationFile) {
      dryRun = mutationFile;
      return this;
    }

    public Builder maxPutCells(long v) {
      maxPutCells = v;
      return this;
    }

    public Builder resume(boolean v) {
      resume = v;
      return this;
    }

    public Builder out(Path v) {
      out = v;
      return this;
    }

    /**
     * A dry run's mutation file to replay: the sides, buckets and time come from it (give none of
     * them).
     */
    public Builder apply(Path v) {
      apply = v;
      return this;
    }

    /** The HFile path's staging dir. */
    public Builder staging(String v) {
      staging = v;
      return this;
    }

    public RepairOptions build() {
      try {
        return validated();
      } catch (IllegalArgumentException e) { // the parsers' messages name the option already
        throw RekeyException.usage(e.getMessage());
      }
    }

    private RepairOptions validated() {
      if (apply != null) {
        fromFile();
      }
      if (!news.isEmpty()) {
        neu = firstOfTargets();
      }
      if (old == null || neu == null) {
        throw RekeyException.usage(
            "Both sides are required: --old-snapshot|--old-table with --old-layout, "
                + "and --new-table with --new-layout");
      }
      checkSides();
      if (maxPutCells < 0) {
        throw RekeyException.usage("--max-put-cells must be 0 or more (got %d)", maxPutCells);
      }
      if (applyBuckets == null && (fromReconcile == null) == (from == null && to == null)) {
        throw RekeyException.usage(
            "Tell repair what to repair: --from-reconcile DIR/reconcile.json (its mismatched"
                + " buckets) or --from and --to with --bucket (every bucket compared first), not"
                + " %s",
            fromReconcile == null ? "neither" : "both");
      }
      TimeBuckets b;
      String timeOption = time;
      Set<Integer> onlyBuckets = applyBuckets;
      Path report = null;
      if (fromReconcile != null) {
        if (bucket != null) {
          throw RekeyException.usage(
              "--bucket comes from the reconcile report with --from-reconcile: leave it out");
        }
        ReportBuckets r = ReportBuckets.read(fromReconcile);
        report = r.report();
        b = r.buckets();
        timeOption = timeOption != null ? timeOption : r.time();
        onlyBuckets = r.mismatched();
      } else {
        if ((from == null) != (to == null)) {
          throw RekeyException.usage(
              "%s was given without %s: repair compares the buckets of [--from, --to); give both",
              from == null ? "--to" : "--from", from == null ? "--from" : "--to");
        }
        long size = TimeArgs.duration(bucket, "--bucket");
        b =
            new TimeBuckets(
                new TimeWindow(TimeArgs.instant(from, "--from"), TimeArgs.instant(to, "--to")),
                size);
      }
      NaturalKey nk = NaturalKey.common(old.layout(), neu.layout());
      TimeSource ts = TimeSource.resolve(timeOption, old.layout(), neu.layout());
      for (SideSpec n : news) {
        NaturalKey.common(old.layout(), n.layout()); // each pair must share a natural key
        TimeSource.resolve(timeOption, old.layout(), n.layout());
      }
      Path dir = outDir(report);
      return new RepairOptions(
          viaSnapshot ? old.viaSnapshot() : old,
          neu,
          b,
          ts,
          nk,
          onlyBuckets,
          report,
          deleteExtra,
          compactIfMasked,
          compactWait,
          dryRun,
          maxPutCells,
          resume,
          dir,
          apply,
          staging,
          news);
    }

    /**
     * The --target tables, checked (not with --new-table, each once, one with a report): the first.
     */
    private SideSpec firstOfTargets() {
      if (neu != null) {
        throw RekeyException.usage(
            "Give the new tables either as --target TABLE=LAYOUT or as --new-table/--new-layout,"
                + " not both");
      }
      if (news.size() > 1 && fromReconcile != null) {
        throw RekeyException.usage(
            "--from-reconcile names the buckets of one new table; with several --target tables"
                + " give --from, --to and --bucket (each table's buckets are compared first)");
      }
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (SideSpec n : news) {
        if (!seen.add(n.source().name())) {
          throw RekeyException.usage(
              "Cannot repair %s: it is given twice as a --target (give each table once)",
              n.source().name());
        }
      }
      return news.get(0);
    }

    /**
     * Each new side a live table; the old one a snapshot (or read through one); layouts that fit.
     */
    private void checkSides() {
      for (SideSpec n : news.isEmpty() ? List.of(neu) : news) {
        if (n.source().kind() != Source.Kind.TABLE) {
          throw RekeyException.usage(
              "Cannot repair %s: repair writes to the new side, so it must be a live table"
                  + " (--new-table)",
              n.describe());
        }
        if (old.source().kind() == Source.Kind.TABLE && !viaSnapshot) {
          throw RekeyException.usage(
              "Cannot repair from the live table %s: writes in flight would look like damage."
                  + " Add --via-snapshot (rekey snapshots it for the run and deletes the snapshot"
                  + " after), or give --old-snapshot",
              old.source().name());
        }
        Optional<String> unfit = new Rekeyer(old.layout(), n.layout()).check();
        if (unfit.isPresent()) {
          throw RekeyException.usage(
              "Cannot repair across layouts %s and %s: %s",
              old.layout().name(), n.layout().name(), unfit.get());
        }
      }
    }

    /**
     * --out, else beside the mutation file replayed, else beside the reconcile report, else the
     * default.
     */
    private Path outDir(Path report) {
      return out != null
          ? out
          : apply != null && apply.toAbsolutePath().getParent() != null
              ? apply.toAbsolutePath().getParent()
              : report != null && report.toAbsolutePath().getParent() != null
                  ? report.toAbsolutePath().getParent()
                  : DEFAULT_OUT;
    }

    /** The sides, buckets and time of a mutation file, as the dry run that wrote it had them. */
    private void fromFile() {
      if (old != null || neu != null || fromReconcile != null || from != null || to != null) {
        throw RekeyException.usage(
            "--apply replays a mutation file with the sides and buckets it names: give none of"
                + " --old-*, --new-*, --from-reconcile, --from, --to");
      }
      MutationFile f = MutationFile.read(apply);
      MutationFile.Recheck r = f.recheck();
      if (r == null) {
        throw RekeyException.usage(
            "Cannot apply %s: it names no sides to compare again (written by an older rekey); run"
                + " the repair --dry-run again",
            apply);
      }
      KeyLayout ol = KeyLayout.parse(r.oldLayout(), apply + " (old layout)");
      old =
          r.oldSnapshot() != null
              ? SideSpec.snapshot("old", r.oldSnapshot(), ol)
              : SideSpec.table("old", r.oldTable(), ol);
      viaSnapshot = r.oldSnapshot() == null;
      neu =
          SideSpec.table("new", f.table(), KeyLayout.parse(r.newLayout(), apply + " (new layout)"));
      from = Long.toString(r.from());
      to = Long.toString(r.to());
      bucket = java.time.Duration.ofMillis(r.bucketMillis()).toString();
      time = time != null ? time : r.time();
      deleteExtra = r.deleteExtra();
      applyBuckets = new TreeSet<>(r.buckets());
    }
  }
}

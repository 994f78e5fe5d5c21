package dev.rekey.cli;

import dev.rekey.common.LayoutFiles;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.reconcile.SideSpec;
import dev.rekey.jobs.repair.Repair;
import dev.rekey.jobs.repair.RepairOptions;
import dev.rekey.jobs.repair.RepairPath;
import dev.rekey.jobs.repair.RepairReport;
import dev.rekey.jobs.repair.RepairResults;
import dev.rekey.read.Source;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * rekey repair: copies what the new table lacks from the old side, in the buckets that differ, by
 * natural key; or replays a dry run's mutation file ({@code --apply}, no Spark).
 */
@Command(
    name = "repair",
    mixinStandardHelpOptions = true,
    description = {
      "Repair the new table in the time buckets where it differs from the old side, across a key"
          + " change: rows joined by natural key, every cell and version compared; missing or"
          + " different cells copied from the old side with their own timestamps; extra cells"
          + " reported (deleted at their exact timestamps with --delete-extra); nothing newer than"
          + " the old side's snapshot (dual writes) is ever overwritten or deleted. Ends by"
          + " comparing the repaired buckets again.",
      "Writes repair.json and repair.html beside reconcile's. Exit 0 the repaired buckets match"
          + " now, 3 some still differ, 4 refused (masked cells without --compact-if-masked, a"
          + " run to resume), 1 failure, 2 bad options."
    },
    footer = {
      "",
      "Example:",
      "  bin/rekey repair --old-table telemetry_v1 --via-snapshot --old-layout "
          + "telemetry-v1 --new-table telemetry_v2 --new-layout telemetry-v2 "
          + "--from-reconcile reconcile-report/reconcile.json"
    })
public final class RepairCommand extends SparkCommand<RepairCommand.Parsed> {
  private static final TargetOptions.Single SINGLE =
      new TargetOptions.Single(
          "repair", "new tables", "--new-table T with --new-layout L", "--new-table/--new-layout");

  @Mixin SiteOption.Old oldSite;

  @Mixin SiteOption.New newSite;

  /** A repair to run on Spark (a mutation file's replay included). */
  record Parsed(RepairOptions repair) {}

  /** reconcile's --old-table | --old-snapshot (a live table is read through a snapshot). */
  @ArgGroup(exclusive = true, multiplicity = "0..1")
  ReconcileCommand.OldSource oldSource;

  @Option(names = "--new-table", paramLabel = "TABLE", description = "The new table, repaired.")
  String newTable;

  @Mixin TargetOptions targets;

  @Option(
      names = "--old-layout",
      paramLabel = "FILE|NAME",
      description = "Layout of the old side's keys (telemetry-v1).")
  String oldLayout;

  @Option(
      names = "--new-layout",
      paramLabel = "FILE|NAME",
      description = "Layout of the new table's keys (telemetry-v2).")
  String newLayout;

  @Option(
      names = "--from-reconcile",
      paramLabel = "FILE|DIR",
      description =
          "A reconcile.json (or its directory): repair its mismatched buckets, with its range,"
              + " bucket size and time.")
  Path fromReconcile;

  @Option(
      names = "--from",
      paramLabel = "TIME",
      description =
          "Start (inclusive), ISO-8601 or epoch millis: without --from-reconcile, every bucket of"
              + " [--from, --to) is compared first, as reconcile does.")
  String from;

  @Option(names = "--to", paramLabel = "TIME", description = "End (exclusive).")
  String to;

  @Option(
      names = "--bucket",
      paramLabel = "SIZE",
      description = "Bucket size with --from/--to: 1h, 1d, 5m, PT5M.")
  String bucket;

  @Option(
      names = "--time",
      paramLabel = "key:FIELD|cell",
      description = "A row's time, as reconcile's --time (default: the layouts' time field).")
  String time;

  @Option(
      names = "--via-snapshot",
      description =
          "Read the live --old-table through a snapshot rekey takes for the run (and deletes"
              + " after): its creation time separates the old side's cells from dual writes.")
  boolean viaSnapshot;

  @Option(
      names = "--delete-extra",
      description =
          "Delete cells found only in the new table at their exact timestamps (never cells newer"
              + " than the old side's snapshot); default: report them.")
  boolean deleteExtra;

  @Option(
      names = "--compact-if-masked",
      description =
          "When delete markers in the new table would hide repaired cells, flush and"
              + " major-compact their regions and wait until the markers are gone (default:"
              + " refuse, naming the regions and the command to run).")
  boolean compactIfMasked;

  @Option(
      names = "--compact-wait",
      paramLabel = "SECONDS",
      defaultValue = "" + RepairOptions.DEFAULT_COMPACT_WAIT_SECONDS,
      description =
          "How long --compact-if-masked waits for the markers to go (default: ${DEFAULT-VALUE}).")
  long compactWaitSeconds;

  @Option(
      names = "--max-put-cells",
      paramLabel = "N",
      defaultValue = "" + RepairPath.DEFAULT_MAX_PUT_CELLS,
      description =
          "Write up to N cells as Puts (default: ${DEFAULT-VALUE}); a larger repair takes the"
              + " backfill's HFile path: the rows sorted by new key into HFiles, bulk-loaded and"
              + " verified.")
  long maxPutCells;

  @Option(
      names = "--staging",
      paramLabel = "DIR",
      description =
          "The HFile path's staging dir (any Hadoop filesystem path the RegionServers can read;"
              + " default: ~/.rekey-staging/repair-<table>); its ledger lets --resume finish a"
              + " killed load.")
  String staging;

  @Option(
      names = "--dry-run",
      paramLabel = "FILE",
      description =
          "Change nothing: write what would be done as a replayable mutation file (JSONL).")
  Path dryRun;

  @Option(
      names = "--apply",
      paramLabel = "FILE",
      description =
          "Replay a --dry-run's mutation file on the table it names, then compare its buckets"
              + " again as a repair does (no side or bucket option needed: they are in the file).")
  Path apply;

  @Option(
      names = "--resume",
      description =
          "Go on from the checkpoint a killed repair left in --out, skipping its buckets.")
  boolean resume;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description =
          "Where repair.json and repair.html go (default: the --from-reconcile report's directory,"
              + " else reconcile-report).")
  Path out;

  @Override
  protected Parsed options() {
    oldSite.site(); // a bad file fails here
    newSite.site();
    if (apply != null) {
      if (oldSource != null || newTable != null || fromReconcile != null || from != null) {
        throw RekeyException.usage(
            "--apply replays a mutation file with the sides and buckets it names: give none of"
                + " --old-*, --new-table, --from-reconcile, --from/--to");
      }
      return new Parsed(
          RepairOptions.builder()
              .apply(apply)
              .compactIfMasked(compactIfMasked)
              .compactWait(Duration.ofSeconds(compactWaitSeconds))
              .resume(resume)
              .out(out)
              .build());
    }
    if (oldSource == null || oldLayout == null) {
      throw RekeyException.usage(
          "repair needs --old-snapshot|--old-table with --old-layout and --new-table with"
              + " --new-layout, or --target TABLE=LAYOUT (repeatable) (or --apply FILE)");
    }
    RepairOptions.Builder b = RepairOptions.builder().old(oldSource.side(oldLayout));
    List<SideSpec> news =
        targets.orSingle(
            SINGLE,
            newTable != null || newLayout != null,
            newTable != null && newLayout != null,
            () ->
                new SideSpec(
                    "new", Source.table(newTable), LayoutFiles.load(newLayout, "--new-layout")),
            t -> new SideSpec("new", t.source(), t.layout()));
    if (targets.given()) {
      news.forEach(b::target);
    } else {
      b.neu(news.get(0));
    }
    return new Parsed(
        b.fromReconcile(fromReconcile)
            .from(from)
            .to(to)
            .bucket(bucket)
            .time(time)
            .viaSnapshot(viaSnapshot)
            .deleteExtra(deleteExtra)
            .compactIfMasked(compactIfMasked)
            .compactWait(Duration.ofSeconds(compactWaitSeconds))
            .maxPutCells(maxPutCells)
            .dryRun(dryRun)
            .resume(resume)
            .staging(staging)
            .out(out)
            .build());
  }

  @Override
  protected int run(SparkSession spark, Parsed p) {
    RepairOptions options = p.repair();
    RepairResults r =
        new Repair(spark, clusters(spark, oldSite, newSite), options)
            .executeAll(global.quiet ? s -> {} : System.err::println);
    for (int i = 0; i < r.tables().size(); i++) {
      System.out.print(r.tables().get(i).console());
      Path dir =
          options.severalTargets()
              ? options.forTarget(options.news().get(i), options.old()).out()
              : options.out();
      System.out.println(
          "report: " + dir.resolve(RepairReport.JSON) + ", " + dir.resolve(RepairReport.HTML));
    }
    return r.exitCode();
  }

  @Override
  protected List<String> driverOutputs() {
    // repair's reports and checkpoint are local files (java.nio) wherever the master is
    return out == null ? List.of() : List.of(out.toAbsolutePath().toUri().toString());
  }
}

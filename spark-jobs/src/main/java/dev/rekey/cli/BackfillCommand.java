package dev.rekey.cli;

import dev.rekey.common.ClusterSite;
import dev.rekey.common.Clusters;
import dev.rekey.common.LayoutFiles;
import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeArgs;
import dev.rekey.common.Versions;
import dev.rekey.jobs.backfill.Backfill;
import dev.rekey.jobs.backfill.BackfillOptions;
import dev.rekey.jobs.backfill.plan.Shard;
import dev.rekey.jobs.backfill.plan.TierRequest;
import dev.rekey.jobs.guardrails.GuardrailMode;
import dev.rekey.jobs.guardrails.GuardrailRequest;
import dev.rekey.targets.Target;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * rekey backfill: snapshot → rekey → HFiles sorted by the target's regions → bulk load → verify.
 */
@Command(
    name = "backfill",
    mixinStandardHelpOptions = true,
    description = {
      "Backfill a pre-split target table from a snapshot of the old table, rekeying every row "
          + "(HFiles + bulk load; cell timestamps kept).",
      "Writes the HFiles, their manifest and a per-region ledger to --staging, then bulk-loads"
          + " and verifies them (--no-load: written only; --dry-run: nothing written)."
    },
    footer = {
      "",
      "Example:",
      "  bin/rekey backfill --source-snapshot telemetry_v1_snap --source-layout "
          + "telemetry-v1 --target-table telemetry_v3 --target-layout telemetry-v2"
    })
public final class BackfillCommand extends SparkCommand<BackfillOptions>
    implements TableRights.Needs {
  private static final TargetOptions.Single SINGLE =
      new TargetOptions.Single(
          "backfill",
          "targets",
          "--target-table T --target-layout L",
          "--target-table/--target-layout");

  @Option(
      names = "--source-snapshot",
      required = true,
      paramLabel = "S",
      description = "Snapshot of the old table.")
  String sourceSnapshot;

  @Option(
      names = "--source-layout",
      required = true,
      paramLabel = "L1",
      description = "Layout of the old keys (file or name under conf/layouts).")
  String sourceLayout;

  /** The old cluster, when the snapshot is on another one than the target's (--hbase-site). */
  @Mixin SiteOption.Old sourceSite;

  @Option(
      names = "--target-table",
      paramLabel = "T",
      description = "Existing pre-split target table (one target; or give --target).")
  String targetTable;

  @Option(
      names = "--target-layout",
      paramLabel = "L2",
      description = "Layout of the new keys (with --target-table).")
  String targetLayout;

  @Mixin TargetOptions targets;

  @Option(
      names = "--from",
      paramLabel = "TIME",
      description = "Cell time range start, inclusive (epoch millis or ISO-8601 instant).")
  String from;

  @Option(
      names = "--to",
      paramLabel = "TIME",
      description = "Cell time range end, exclusive (epoch millis or ISO-8601 instant).")
  String to;

  @Option(
      names = "--families",
      split = ",",
      paramLabel = "f,..",
      description = "Families to copy (default: all).")
  List<String> families = new ArrayList<>();

  @Option(
      names = "--staging",
      paramLabel = "DIR",
      description =
          "Staging dir for HFiles, manifest and ledger "
              + "(any Hadoop filesystem path the RegionServers can read; default: ~/.rekey-staging/backfill-<table>).")
  String staging;

  @Option(
      names = "--splits-per-region",
      paramLabel = "k",
      defaultValue = "1",
      description = "Write partitions per target region (default: ${DEFAULT-VALUE}).")
  int splitsPerRegion;

  @Option(
      names = "--max-quarantined",
      paramLabel = "N",
      defaultValue = "0",
      description =
          "Fail when more source keys than this do not decode (default: ${DEFAULT-VALUE}).")
  long maxQuarantined;

  @Option(
      names = "--versions",
      paramLabel = "N|all",
      defaultValue = "all",
      description =
          "Versions of each column to copy, with their timestamps (default: ${DEFAULT-VALUE}); capped per "
              + "family at the target family's VERSIONS, and the cells left out are counted.")
  String versions;

  @Option(
      names = "--write-path",
      paramLabel = "auto|sort",
      defaultValue = "auto",
      description =
          "auto (default): write HFiles in the source's order, without a shuffle, where the layouts keep it "
              + "(a salt added to the same fields), else sort; sort: always sort by target key.")
  String writePath;

  @Option(
      names = "--time-tiers",
      paramLabel = "P|family",
      description =
          "Write each region's cells into one HFile per time tier of this width (ISO-8601: P1D, P30D,"
              + " PT6H; family: the target family's date-tiered window), so a read of a window skips"
              + " the other tiers' files; coarser tiers when HBase's per-region file limit would be"
              + " passed (default: one file per region).")
  String timeTiers;

  @Option(
      names = "--verify",
      paramLabel = "files|rows",
      defaultValue = "files",
      description =
          "files (default): every loaded HFile must be a store file of the table with its keys and cell "
              + "count (reads no rows; regions whose files changed since are checked by cells); rows: every cell written "
              + "is checked in a snapshot of the table.")
  String verify;

  @Option(
      names = "--shard",
      paramLabel = "i/N",
      description =
          "Backfill only shard i of N of the source snapshot's regions (contiguous runs of about"
              + " equal bytes): its own staging subdir (<staging>/shard-i-of-N), ledger, lock, load"
              + " record and verification, so a failed shard reruns alone (with --resume); the"
              + " repeat check refuses a shard loaded twice. Shards of one target run one after"
              + " another (the target's lock).")
  String shard;

  @Option(
      names = "--dry-run",
      description = "Print rows, bytes and files per target region and the skew; write nothing.")
  boolean dryRun;

  @Option(
      names = "--guardrails",
      paramLabel = "off|report|strict",
      defaultValue = "off",
      description =
          "Before the write, read the snapshot once and check every row: rows over the target cluster's "
              + "hbase.table.max.rowsize, cells over hbase.client.keyvalue.maxsize (or --max-cell-bytes) under the "
              + "target key, rows wider than --max-columns, target keys over HBase's key length, keys --source-layout "
              + "cannot decode; counts per source region and the worst keys in hex. report: print and go on; strict: "
              + "refuse to start (exit 4, nothing written) when any is found; off (default). --dry-run always reports "
              + "them, from its own read.")
  String guardrails;

  @Option(
      names = "--max-cell-bytes",
      paramLabel = "BYTES",
      description =
          "Guardrails' cell size limit (default: the target cluster's hbase.client.keyvalue.maxsize).")
  Long maxCellBytes;

  @Option(
      names = "--max-columns",
      paramLabel = "N",
      description = "Guardrails: report rows with more columns than N (default: no limit).")
  Integer maxColumns;

  @Option(
      names = "--no-load",
      description = "Write and commit the HFiles, but do not load them (load later with --resume).")
  boolean noLoad;

  @Option(
      names = "--resume",
      description =
          "Continue the backfill in --staging: load and verify only regions not yet verified.")
  boolean resume;

  @Option(
      names = "--load-again",
      description =
          "Load although the target already holds a load of this snapshot (same name and creation"
              + " time, overlapping --from/--to and --families), recorded in its table attributes by"
              + " an earlier run with any staging dir: a backfill that finds one is refused, as a"
              + " second load doubles the table's store files until a major compaction (the visible"
              + " cells stay the same). Without it, --resume on that run's staging dir checks it.")
  boolean loadAgain;

  @Override
  protected BackfillOptions options() {
    BackfillOptions.Builder b =
        BackfillOptions.builder()
            .sourceSnapshot(sourceSnapshot)
            .sourceLayout(LayoutFiles.load(sourceLayout, "--source-layout"));
    targets
        .orSingle(
            SINGLE,
            targetTable != null || targetLayout != null,
            targetTable != null && targetLayout != null,
            () -> Target.of(targetTable, LayoutFiles.load(targetLayout, "--target-layout")),
            t -> t)
        .forEach(b::target);
    sourceSite.site(); // a bad file fails here
    return b.cellTime(TimeArgs.window(from, to, null))
        .families(families)
        .staging(staging)
        .splitsPerRegion(splitsPerRegion)
        .maxQuarantined(maxQuarantined)
        .dryRun(dryRun)
        .guardrails(GuardrailMode.parse(guardrails), new GuardrailRequest(maxCellBytes, maxColumns))
        .noLoad(noLoad)
        .resume(resume)
        .loadAgain(loadAgain)
        .versions(Versions.parse(versions, "--versions"))
        .sortAlways(sortAlways(writePath))
        .timeTiers(TierRequest.parse(timeTiers))
        .verifyRows(verifyRows(verify))
        .shard(Shard.parse(shard))
        .build();
  }

  @Override
  protected int run(SparkSession spark, BackfillOptions options) {
    Configuration target = hbaseConf(spark);
    ClusterSite source = sourceSite.site();
    Clusters clusters =
        source == null ? Clusters.one(target) : new Clusters(hbaseConf(spark, source), target);
    return print(new Backfill(spark, clusters, options).executeAll(System.out::println));
  }

  private static boolean verifyRows(String mode) {
    return switch (mode) {
      case "files" -> false;
      case "rows" -> true;
      default -> throw RekeyException.usage("Invalid --verify '%s': expected files or rows", mode);
    };
  }

  private static boolean sortAlways(String path) {
    return switch (path) {
      case "auto" -> false;
      case "sort" -> true;
      default ->
          throw RekeyException.usage("Invalid --write-path '%s': expected auto or sort", path);
    };
  }

  /**
   * The source snapshot's table: READ (its files); each target: READ (verification), CREATE (bulk
   * load), ADMIN (the verification snapshot). A source on another cluster is checked there by the
   * job.
   */
  @Override
  public List<TableRights.Need> tableRights() {
    List<TableRights.Need> needs = new java.util.ArrayList<>();
    if (sourceSnapshot != null && sourceSite.file == null && sourceSite.alias == null) {
      needs.add(TableRights.Need.snapshot(sourceSnapshot, "read snapshot " + sourceSnapshot));
    }
    List<String> tables = new java.util.ArrayList<>();
    if (targetTable != null) {
      tables.add(targetTable);
    }
    targets.values.forEach(v -> tables.add(v.substring(0, Math.max(0, v.indexOf('=')))));
    for (String t : tables) {
      if (!t.isEmpty()) {
        needs.add(
            TableRights.Need.table(
                t, "RCA", "bulk load HFiles into it and verify them (a snapshot of it)"));
      }
    }
    return needs;
  }
}

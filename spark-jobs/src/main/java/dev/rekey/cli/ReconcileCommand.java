package dev.rekey.cli;

import dev.rekey.common.LayoutFiles;
import dev.rekey.common.OutputDir;
import dev.rekey.common.Versions;
import dev.rekey.jobs.reconcile.Reconcile;
import dev.rekey.jobs.reconcile.ReconcileOptions;
import dev.rekey.jobs.reconcile.ReconcileReport;
import dev.rekey.jobs.reconcile.ReconcileResult;
import dev.rekey.jobs.reconcile.SideSpec;
import dev.rekey.read.Source;
import dev.rekey.targets.EachTarget;
import dev.rekey.targets.Target;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * rekey reconcile: per-time-bucket counts and content digests between an old and a new table, by
 * natural key.
 */
@Command(
    name = "reconcile",
    mixinStandardHelpOptions = true,
    description = {
      "Compare an old and a new table (or snapshots) per time bucket by natural key, across a key change:"
          + " rows, cells and (--digest) content digests per bucket; mismatched buckets are drilled down to sample keys.",
      "Writes reconcile.json and reconcile.html to --out. Exit 0 all buckets match, 3 any mismatch, 1 failure."
    },
    footer = {
      "",
      "Example:",
      "  bin/rekey reconcile --old-table telemetry_v1 --old-layout "
          + "conf/layouts/telemetry-v1.yaml --new-table telemetry_v2 --new-layout "
          + "conf/layouts/telemetry-v2.yaml --bucket 1h --from 2026-11-29 --to "
          + "2026-11-30 --digest"
    })
public final class ReconcileCommand extends SparkCommand<List<ReconcileOptions>>
    implements TableRights.Needs {
  private static final TargetOptions.Single SINGLE =
      new TargetOptions.Single(
          "reconcile",
          "new tables",
          "the new side as --new-table T (or --new-snapshot S) with --new-layout L",
          "--new-table/--new-snapshot with --new-layout");

  @Mixin SiteOption.Old oldSite;

  @Mixin SiteOption.New newSite;

  static final class OldSource {
    @Option(
        names = "--old-table",
        paramLabel = "TABLE",
        required = true,
        description = "The old (live) table.")
    String table;

    @Option(
        names = "--old-snapshot",
        paramLabel = "SNAPSHOT",
        required = true,
        description = "A snapshot of the old table.")
    String snapshot;

    /** The old side, its keys in {@code layout} (--old-layout). */
    SideSpec side(String layout) {
      return new SideSpec(
          "old", Source.of(table, snapshot, false), LayoutFiles.load(layout, "--old-layout"));
    }
  }

  static final class NewSource {
    @Option(
        names = "--new-table",
        paramLabel = "TABLE",
        required = true,
        description = "The new (live) table.")
    String table;

    @Option(
        names = "--new-snapshot",
        paramLabel = "SNAPSHOT",
        required = true,
        description = "A snapshot of the new table.")
    String snapshot;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  OldSource oldSource;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  NewSource newSource;

  @Mixin TargetOptions targets;

  @Option(
      names = "--old-layout",
      required = true,
      paramLabel = "FILE|NAME",
      description =
          "Layout of the old side's keys: a file, or a name from conf/layouts (telemetry-v1).")
  String oldLayout;

  @Option(
      names = "--new-layout",
      paramLabel = "FILE|NAME",
      description =
          "Layout of the new side's keys: a file, or a name from conf/layouts (telemetry-v2)."
              + " With --new-table or --new-snapshot.")
  String newLayout;

  @Option(
      names = "--bucket",
      required = true,
      paramLabel = "SIZE",
      description = "Bucket size: 1h, 1d, 5m, 30s, or ISO-8601 PT5M.")
  String bucket;

  @Option(
      names = "--from",
      paramLabel = "TIME",
      description =
          "Start (inclusive): ISO-8601 (2026-11-29T00:00:00Z, "
              + "2026-11-29) or epoch millis. Without --from/--to the whole table is compared: one more keys-only pass finds "
              + "the range of the data, which is printed.")
  String from;

  @Option(
      names = "--to",
      paramLabel = "TIME",
      description = "End (exclusive): ISO-8601 or epoch millis.")
  String to;

  @Option(
      names = "--all-buckets",
      description =
          "List every bucket on the console (default: mismatched buckets, "
              + "and each run of matching or empty buckets folded into one line).")
  boolean allBuckets;

  @Option(
      names = "--time",
      paramLabel = "key:FIELD|cell",
      description =
          "A row's time: a key field of epoch millis (default: the layouts' time field) or `cell` (its newest cell timestamp).")
  String time;

  @Option(
      names = "--digest",
      description =
          "Also compare content digests (natural key, family, qualifier, timestamp, value) per bucket.")
  boolean digest;

  @Option(
      names = "--versions",
      defaultValue = "all",
      paramLabel = "N|all",
      description =
          "Versions of each column to compare (default: ${DEFAULT-VALUE}); 1 compares the newest only, e.g. "
              + "against a new table whose families keep fewer versions than the old.")
  String versions;

  @Option(
      names = "--via-snapshot",
      description =
          "Read live tables from snapshots rekey takes for this run and "
              + "deletes after (a flush and a snapshot per table): the tasks read the HFiles, the RegionServers serve no rows. "
              + "Needs the right to snapshot the tables.")
  boolean viaSnapshot;

  @Option(
      names = "--samples",
      defaultValue = "20",
      paramLabel = "N",
      description =
          "Differing natural keys to show per mismatched bucket (default: ${DEFAULT-VALUE}).")
  int samples;

  @Option(
      names = "--out",
      defaultValue = "reconcile-report",
      paramLabel = "DIR",
      description =
          "Where reconcile.json and reconcile.html go: a path or Hadoop URI (hdfs://, s3a://,"
              + " file://); without a scheme a local path on a local master, else on the cluster's"
              + " default filesystem (default: ${DEFAULT-VALUE}).")
  String out;

  @Override
  protected List<ReconcileOptions> options() {
    oldSite.site(); // a bad file fails here
    newSite.site();
    List<SideSpec> news =
        targets.orSingle(
            SINGLE,
            newSource != null || newLayout != null,
            newSource != null && newLayout != null,
            () ->
                new SideSpec(
                    "new",
                    Source.of(newSource.table, newSource.snapshot, false),
                    LayoutFiles.load(newLayout, "--new-layout")),
            t -> new SideSpec("new", t.source(), t.layout()));
    List<ReconcileOptions> out = new ArrayList<>();
    for (SideSpec neu : news) {
      out.add(
          ReconcileOptions.builder()
              .old(oldSource.side(oldLayout))
              .neu(neu)
              .bucket(bucket)
              .from(from)
              .to(to)
              .time(time)
              .digest(digest)
              .samples(samples)
              // several new tables: a report directory each
              .out(
                  targets.given()
                      ? new org.apache.hadoop.fs.Path(
                              this.out, Target.folderName(neu.source().name()))
                          .toString()
                      : this.out)
              .viaSnapshot(viaSnapshot)
              .versions(Versions.parse(versions, "--versions"))
              .build());
    }
    return out;
  }

  @Override
  protected int run(SparkSession spark, List<ReconcileOptions> all) {
    return EachTarget.exitCode(
        EachTarget.run(
            all,
            o -> String.format("%s vs %s:", o.old().source().name(), o.neu().source().name()),
            System.out::println,
            o -> reconcile(spark, o)));
  }

  /** One new table's reconcile: its result printed, and where its report went. */
  private ReconcileResult reconcile(SparkSession spark, ReconcileOptions o) {
    ReconcileResult r =
        new Reconcile(spark, clusters(spark, oldSite, newSite), o)
            .execute(global.quiet ? s -> {} : System.err::println);
    System.out.print(r.console(allBuckets));
    OutputDir dir = OutputDir.of(o.out(), spark.sparkContext());
    System.out.printf(
        "report: %s, %s%n",
        dir.display(dir.resolve(ReconcileReport.JSON)),
        dir.display(dir.resolve(ReconcileReport.HTML)));
    return r;
  }

  @Override
  protected List<String> driverOutputs() {
    return out == null ? List.of() : List.of(out);
  }

  /** READ on each side read on this cluster (a table, or a snapshot's table). */
  @Override
  public List<TableRights.Need> tableRights() {
    List<TableRights.Need> needs = new java.util.ArrayList<>();
    if (oldSite.file == null && oldSite.alias == null) {
      needs.add(
          oldSource.table != null
              ? TableRights.Need.table(oldSource.table, "R", "read it")
              : TableRights.Need.snapshot(oldSource.snapshot, "read it"));
    }
    if (newSite.file == null && newSite.alias == null) {
      if (newSource != null) {
        needs.add(
            newSource.table != null
                ? TableRights.Need.table(newSource.table, "R", "read it")
                : TableRights.Need.snapshot(newSource.snapshot, "read it"));
      }
      for (String v : targets.values) {
        int eq = v.indexOf('=');
        if (eq > 0) {
          needs.add(TableRights.Need.table(v.substring(0, eq), "R", "read it"));
        }
      }
    }
    return needs;
  }
}

package dev.rekey.cli;

import dev.rekey.common.LayoutFiles;
import dev.rekey.common.TimeArgs;
import dev.rekey.home.RekeyHome;
import dev.rekey.jobs.scan.OutputFormat;
import dev.rekey.jobs.scan.ReportFile;
import dev.rekey.jobs.scan.ScanJob;
import dev.rekey.jobs.scan.ScanOptions;
import dev.rekey.jobs.scan.WideColumn;
import dev.rekey.read.RegionReader;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * rekey scan: the nightly full-table time-range scan, one Spark task per region, feeding the SQL
 * reports.
 */
@Command(
    name = "scan",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Scan a table or snapshot for a time window, one Spark task per region; decode every key with the "
          + "layout and run SQL reports over the rows (views scan_rows, scan_cells: see sql/README.md).",
      "Writes --out/<report>/ per report, summary.json (rows, cells, bytes, ms per region) and report.html."
    },
    footer = {
      "",
      "Example:",
      "  bin/rekey scan --table events_v2 --layout conf/layouts/events-v2.yaml --day 2026-11-29 "
          + "--report sql/user_daily_activity.sql --out scan-out --format csv"
    })
public final class ScanCommand extends SparkCommand<ScanOptions> implements TableRights.Needs {
  @ArgGroup(exclusive = true, multiplicity = "1")
  SourceArgs source;

  @Option(
      names = "--via-snapshot",
      description =
          "With --table: scan a snapshot the job takes (a flush and a "
              + "snapshot) and deletes after, so the RegionServers serve no rows. Needs the right to snapshot the table.")
  boolean viaSnapshot;

  @Option(
      names = "--layout",
      paramLabel = "L",
      required = true,
      description = "Layout file that decodes the row keys, or a name in conf/layouts (events-v2).")
  String layout;

  @Option(
      names = "--from",
      paramLabel = "TIME",
      description =
          "Window start, inclusive: epoch millis or ISO-8601 "
              + "(2026-11-29T00:00:00Z; no zone = UTC). Default: 0.")
  String from;

  @Option(
      names = "--to",
      paramLabel = "TIME",
      description = "Window end, exclusive (same forms). Default: no end.")
  String to;

  @Option(
      names = "--day",
      paramLabel = "YYYY-MM-DD",
      description =
          "Shortcut for that UTC day's window "
              + "[day 00:00Z, next day 00:00Z), e.g. yesterday's for the nightly report.")
  String day;

  @Option(
      names = "--report",
      paramLabel = "SQL",
      description = "Report file (sql/NAME.sql, or NAME); repeatable.")
  List<String> reports = new ArrayList<>();

  @Option(
      names = "--param",
      paramLabel = "NAME=VALUE",
      description = "A report parameter declared in its header; " + "repeatable.")
  List<String> params = new ArrayList<>();

  @Option(
      names = "--column",
      paramLabel = "F:Q=TYPE[:NAME]",
      description =
          "A qualifier as a typed column of "
              + "scan_rows (string, long, int, double, binary), e.g. d:v=long; repeatable.")
  List<String> columns = new ArrayList<>();

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description =
          "Output directory: a path or Hadoop URI (hdfs://, s3a://, file://). Without a scheme:"
              + " local on a local master, else on the cluster's default filesystem; a local"
              + " directory with executors on other hosts is refused (default: <rekey.output-root>/scan-<table>"
              + " when rekey.properties names an output root, else scan-out).")
  String out = ScanOptions.DEFAULT_OUT;

  @Option(
      names = "--format",
      paramLabel = "FMT",
      defaultValue = "parquet",
      description = "Report output format: parquet, csv or json (default: ${DEFAULT-VALUE}).")
  String format;

  @Option(
      names = "--splits-per-region",
      paramLabel = "K",
      defaultValue = "" + ScanOptions.DEFAULT_SPLITS_PER_REGION,
      description = "Spark tasks per region (default: ${DEFAULT-VALUE}).")
  int splitsPerRegion;

  @Option(
      names = "--families",
      paramLabel = "F",
      split = ",",
      description = "Families to read (default: all).")
  List<String> families = new ArrayList<>();

  @Option(
      names = "--where",
      paramLabel = "FIELD=VALUE",
      description =
          "Only one entity: the key's leading "
              + "field(s), e.g. userId=alice for events-v2, read as that entity's one key range (not a filter); repeatable.")
  List<String> where = new ArrayList<>();

  @Option(
      names = "--caching",
      paramLabel = "ROWS",
      defaultValue = "" + RegionReader.DEFAULT_CACHING,
      description =
          "Rows per scanner RPC (default 0: HBase's own hbase.client.scanner.caching, "
              + "which unless set is as many rows as fit in 2 MB).")
  int caching;

  /**
   * --out as given; without one, {@code <rekey.output-root>/scan-<table or snapshot>} when the
   * properties file names an output root, else scan-out.
   */
  private String outOrRoot() {
    boolean given = spec.commandLine().getParseResult().hasMatchedOption("--out");
    String root = global.outputRoot();
    if (given || root == null) {
      return out;
    }
    String name = source.table != null ? source.table : source.snapshot;
    return root.replaceAll("/+$", "") + "/scan-" + dev.rekey.targets.Target.folderName(name);
  }

  @Override
  protected ScanOptions options() {
    ScanOptions.Builder b =
        ScanOptions.builder()
            .source(source.source(viaSnapshot))
            .layout(LayoutFiles.load(layout, "--layout"))
            .window(TimeArgs.window(from, to, day))
            .out(outOrRoot())
            .format(OutputFormat.parse(format))
            .splitsPerRegion(splitsPerRegion)
            .families(families)
            .caching(caching);
    for (String r : reports) {
      b.report(ReportFile.load(ReportFile.resolve(r, RekeyHome.dir())));
    }
    for (String c : columns) {
      b.column(WideColumn.parse(c));
    }
    for (String p : params) {
      b.param(p);
    }
    for (String w : where) {
      b.where(w);
    }
    return b.build();
  }

  @Override
  protected int run(SparkSession spark, ScanOptions options) {
    return print(new ScanJob(spark, hbaseConf(spark), options).execute(System.out::println));
  }

  /** READ on the table scanned (and ADMIN to snapshot it with --via-snapshot). */
  @Override
  public List<TableRights.Need> tableRights() {
    if (source.snapshot != null) {
      return List.of(TableRights.Need.snapshot(source.snapshot, "scan it"));
    }
    return List.of(
        viaSnapshot
            ? TableRights.Need.table(source.table, "RA", "snapshot it and scan the snapshot")
            : TableRights.Need.table(source.table, "R", "scan it"));
  }
}

package dev.rekey.cli;

import dev.rekey.common.LayoutFiles;
import dev.rekey.common.OutputDir;
import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeArgs;
import dev.rekey.jobs.analyze.Analyze;
import dev.rekey.jobs.analyze.AnalyzeOptions;
import dev.rekey.jobs.analyze.AnalyzeReport;
import dev.rekey.jobs.guardrails.GuardrailRequest;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * rekey analyze: the hotspot in numbers, a verdict and a recommendation; optionally a simulated new
 * layout.
 */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    description =
        "Find the hotspot: leading-byte histogram, monotonic-write detection and region/server request counts "
            + "of a table (or a snapshot's table), a verdict and a key shape / bucket count / region count recommendation; "
            + "simulate a proposed layout and split points on the sampled keys. Writes analyze.json and analyze.html.",
    footer = {
      "",
      "Example:",
      "  bin/rekey analyze --snapshot telemetry_v1_snap --layout telemetry-v1 "
          + "--servers 12 --layout2 telemetry-v2 --splits natural --out analyze-out"
    })
public final class AnalyzeCommand extends SparkCommand<AnalyzeOptions> {
  @ArgGroup(exclusive = true, multiplicity = "1")
  SourceArgs source;

  @Option(
      names = "--layout",
      paramLabel = "L",
      description = "Layout of the keys (file or name under conf/layouts).")
  String layout;

  @Option(
      names = "--sample",
      paramLabel = "N",
      defaultValue = "" + AnalyzeOptions.DEFAULT_SAMPLE,
      description = "Keys to sample (default: ${DEFAULT-VALUE}).")
  int sample;

  @Option(
      names = "--servers",
      paramLabel = "S",
      description =
          "RegionServers the new table will have (bucket count N = 1–2× S as a power of two); default: the live ones.")
  Integer servers;

  @Option(
      names = "--layout2",
      paramLabel = "L2",
      description = "Proposed layout to simulate on the sampled keys (needs --layout).")
  String layout2;

  @Option(
      names = "--splits",
      paramLabel = "SPEC",
      description =
          "Proposed split points: hex:N (HexStringSplit), uniform:N, natural[:N] (the layout's), or a split file.")
  String splits;

  @Option(
      names = "--from",
      paramLabel = "TIME",
      description =
          "Analyze only rows from this time (epoch millis or ISO-8601; with --layout whose time field follows "
              + "the prefix, only the key ranges holding the window are read; else a cell time range).")
  String from;

  @Option(
      names = "--to",
      paramLabel = "TIME",
      description = "Analyze only rows before this time (exclusive; see --from).")
  String to;

  @Option(
      names = "--guardrails",
      description =
          "Also check every row read, in the same read: rows over the cluster's hbase.table.max.rowsize, cells over "
              + "hbase.client.keyvalue.maxsize (or --max-cell-bytes), rows wider than --max-columns, keys over HBase's "
              + "key length once rekeyed with --layout2, and keys --layout cannot decode; counts per region and the "
              + "worst keys in hex. Findings are reported, not an error (backfill --guardrails strict refuses them).")
  boolean guardrails;

  @Option(
      names = "--max-cell-bytes",
      paramLabel = "BYTES",
      description =
          "With --guardrails: the cell size limit (default: the cluster's hbase.client.keyvalue.maxsize).")
  Long maxCellBytes;

  @Option(
      names = "--max-columns",
      paramLabel = "N",
      description = "With --guardrails: report rows with more columns than N (default: no limit).")
  Integer maxColumns;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = ".",
      description =
          "Where analyze.json and analyze.html go: a path or Hadoop URI (hdfs://, s3a://,"
              + " file://); without a scheme a local path on a local master, else on the cluster's"
              + " default filesystem (default: the current directory).")
  String out;

  @Override
  protected AnalyzeOptions options() {
    return AnalyzeOptions.builder()
        .source(source.source(false))
        .layout(layout == null ? null : LayoutFiles.load(layout, "--layout"))
        .sample(sample)
        .servers(servers)
        .window(TimeArgs.window(from, to, null))
        .simulate(layout2 == null ? null : LayoutFiles.load(layout2, "--layout2"), splits)
        .out(out)
        .guardrails(guardrailRequest())
        .build();
  }

  private GuardrailRequest guardrailRequest() {
    if (!guardrails) {
      if (maxCellBytes != null || maxColumns != null) {
        throw RekeyException.usage(
            "--max-cell-bytes and --max-columns are limits of --guardrails: add --guardrails");
      }
      return null;
    }
    return new GuardrailRequest(maxCellBytes, maxColumns);
  }

  @Override
  protected int run(SparkSession spark, AnalyzeOptions options) {
    int exit = print(new Analyze(spark, hbaseConf(spark), options).execute());
    OutputDir dir = OutputDir.of(options.out(), spark.sparkContext());
    List<org.apache.hadoop.fs.Path> files = AnalyzeReport.files(dir);
    System.out.println("wrote " + dir.display(files.get(0)) + " and " + dir.display(files.get(1)));
    return exit;
  }

  @Override
  protected List<String> driverOutputs() {
    return out == null ? List.of() : List.of(out);
  }
}

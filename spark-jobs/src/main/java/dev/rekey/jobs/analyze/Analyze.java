package dev.rekey.jobs.analyze;

import dev.rekey.common.Job;
import dev.rekey.common.JobPhase;
import dev.rekey.common.OutputDir;
import dev.rekey.common.OutputReach;
import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeWindow;
import dev.rekey.jobs.guardrails.GuardrailFold;
import dev.rekey.jobs.guardrails.GuardrailLimits;
import dev.rekey.jobs.guardrails.GuardrailReport;
import dev.rekey.jobs.guardrails.GuardrailTally;
import dev.rekey.read.BothFolds;
import dev.rekey.read.ReadPlan;
import dev.rekey.read.RegionRead;
import dev.rekey.read.RegionReader;
import dev.rekey.read.RegionScan;
import dev.rekey.read.Source;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The analyze action: the live table's regions and RegionServer counters (read first, so analyze's
 * own scan does not count), then every row read region-parallel through {@link RegionReader} (table
 * or snapshot) into exact rows per region and a uniform key sample, then the pure statistics
 * ({@link Analyzer}) and an optional simulation of a proposed layout and split points. With a time
 * window, only the rows of that window are read, through the same {@link ReadPlan} pruning as scan.
 */
public record Analyze(SparkSession spark, Configuration hbaseConf, AnalyzeOptions options)
    implements Job<AnalyzeResult> {

  /**
   * Analyzes the source; writes analyze.json and analyze.html when the options name an out dir (the
   * CLI prints where, after the result). Analyze has no progress lines of its own.
   */
  @Override
  public AnalyzeResult execute(Consumer<String> progress) {
    // where the report goes is resolved before the read: a bad --out fails now, not after it
    OutputDir out =
        options.out() == null ? null : OutputDir.of(options.out(), spark.sparkContext());
    if (out != null) {
      OutputReach.check(spark.sparkContext(), "--out", out, false);
    }
    AnalyzeResult r = analyze();
    if (out != null) {
      AnalyzeReport.write(r, out);
    }
    return r;
  }

  /**
   * How a window limits the read (pure): the layout's key ranges when its time field is in key
   * order, else a cell time range; every key without a window.
   */
  static ReadPlan readPlan(KeyLayout layout, TimeWindow window) {
    if (window.isAll()) {
      return ReadPlan.all();
    }
    if (layout == null) {
      return ReadPlan.cellTime("no --layout, so the keys' time field is unknown");
    }
    return ReadPlan.window(layout, window.from(), window.to());
  }

  private AnalyzeResult analyze() {
    long t0 = System.nanoTime();
    Source source = options.source();
    String snapshot = source.kind() == Source.Kind.SNAPSHOT ? source.name() : null;
    TableName table = snapshot == null ? TableName.valueOf(source.name()) : null;
    KeyLayout layout = options.layout();
    KeyLayout layout2 = options.layout2();
    int sample = options.sample();
    TableName live;
    ClusterRegions.View view;
    try (Connection conn = ConnectionFactory.createConnection(hbaseConf);
        Admin admin = conn.getAdmin()) {
      live = table != null ? table : sourceOf(admin, snapshot);
      if (!admin.tableExists(live)) {
        throw RekeyException.cannot(
            "Cannot analyze %s: table %s does not exist (list tables with `list` in"
                + " the HBase shell, or check --hbase-site points at the right cluster)",
            source, live);
      }
      view = ClusterRegions.read(conn, admin, live);
    } catch (IOException e) {
      throw RekeyException.cannot(e, "Cannot analyze %s: %s", source, e.getMessage());
    }

    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    RegionReader reader =
        table != null ? RegionReader.table(table) : RegionReader.snapshot(snapshot);
    TimeWindow window = options.window();
    if (!window.isAll()) {
      // as scan: cells outside the window are never read, and the key ranges (when the layout has
      // them) keep each region's task to the part of its keys that can hold the window
      reader.timeRange(window.from(), window.to()).plan(readPlan(layout, window));
    }
    ArrayList<byte[]> starts = new ArrayList<>(view.startKeys());
    int regions = starts.size();
    int capacity = sample;
    List<PartitionSample> parts;
    AnalyzeRead how;
    GuardrailLimits limits =
        options.guardrails() == null
            ? null
            : options.guardrails().limits(hbaseConf, layout, layout2);
    GuardrailTally found = null;
    try (RegionRead read = reader.open(jsc, hbaseConf)) {
      SampleFold sampling = new SampleFold(starts, capacity);
      if (limits == null) {
        try (JobPhase phase =
            JobPhase.start(
                jsc.sc(), "analyze: sample keys of %s", JobPhase.count(regions, "region"))) {
          parts = read.fold(sampling).collect();
        }
      } else {
        // one read: the sample and the guardrails fed by the same streamed rows
        List<BothFolds.Both<PartitionSample, GuardrailTally>> both;
        try (JobPhase phase =
            JobPhase.start(
                jsc.sc(),
                "analyze: sample keys of %s and check guardrails",
                JobPhase.count(regions, "region"))) {
          both = read.fold(new BothFolds<>(sampling, new GuardrailFold(limits, starts))).collect();
        }
        parts = both.stream().map(BothFolds.Both::first).toList();
        found = new GuardrailTally(regions, limits.worst());
        for (BothFolds.Both<PartitionSample, GuardrailTally> b : both) {
          found.merge(b.second());
        }
      }
      List<RegionScan> scans = read.regionScans();
      how =
          new AnalyzeRead(
              read.reading(),
              window.toString(),
              read.plan().describe(),
              scans.stream().mapToLong(RegionScan::rowsScanned).sum(),
              scans.stream().map(RegionScan::toMap).toList());
    }
    long rowsRead = parts.stream().mapToLong(PartitionSample::rows).sum();
    List<RegionStat> regionStats = withRows(view, parts, regions);
    List<KeySample> samples = PartitionSample.combine(parts, sample);
    Simulation sim = simulate(samples, rowsRead);
    AnalyzeResult result =
        Analyzer.assemble(
                reader.describe(),
                live.getNameAsString(),
                layout,
                rowsRead,
                samples,
                regionStats,
                view.servers(),
                view.liveServers(),
                options.servers(),
                sim,
                (System.nanoTime() - t0) / 1e9)
            .withRead(how);
    if (found != null) {
      result =
          result.withGuardrails(
              GuardrailReport.of(
                  limits, found, starts.stream().map(dev.rekey.rowkey.Hex::of).toList()));
    }
    return result;
  }

  /** The cluster's view of each region with the rows the sample read counted in it. */
  private static List<RegionStat> withRows(
      ClusterRegions.View view, List<PartitionSample> parts, int regions) {
    long[] perRegion = new long[regions];
    for (PartitionSample p : parts) {
      for (int i = 0; i < regions; i++) {
        perRegion[i] += p.rowsPerRegion()[i];
      }
    }
    List<RegionStat> regionStats = new ArrayList<>();
    for (RegionStat r : view.regions()) {
      regionStats.add(r.withRows(perRegion[r.index()]));
    }
    return regionStats;
  }

  /** The --splits proposal's spread over the sampled keys, when one was asked for. */
  private Simulation simulate(List<KeySample> samples, long rowsRead) {
    KeyLayout layout = options.layout();
    KeyLayout layout2 = options.layout2();
    Simulation sim = null;
    SplitSpec spec = options.splits();
    if (spec != null) {
      List<byte[]> keys = new ArrayList<>(samples.size());
      samples.forEach(s -> keys.add(s.key()));
      sim = Simulator.simulate(layout2 != null ? layout : null, layout2, spec, keys, rowsRead);
    }
    return sim;
  }

  private static TableName sourceOf(Admin admin, String snapshot) throws IOException {
    for (SnapshotDescription s : admin.listSnapshots()) {
      if (s.getName().equals(snapshot)) {
        return s.getTableName();
      }
    }
    throw RekeyException.cannot(
        "Cannot analyze snapshot %s: it does not exist (list snapshots with"
            + " `list_snapshots` in the HBase shell; take one with `snapshot 'TABLE',"
            + " '%s'`)",
        snapshot, snapshot);
  }
}

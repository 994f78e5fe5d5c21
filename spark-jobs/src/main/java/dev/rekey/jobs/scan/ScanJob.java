package dev.rekey.jobs.scan;

import dev.rekey.common.DecodedRow;
import dev.rekey.common.Job;
import dev.rekey.common.JobPhase;
import dev.rekey.common.OutputDir;
import dev.rekey.common.OutputReach;
import dev.rekey.common.RekeyException;
import dev.rekey.common.RowDecoder;
import dev.rekey.read.JobSnapshots;
import dev.rekey.read.RegionRead;
import dev.rekey.read.RegionReader;
import dev.rekey.read.Source;
import dev.rekey.read.TemporarySnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormatImpl;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;

/**
 * The scan job (run layer): read the source region-parallel, decode every key with the layout,
 * register the views, run the reports, write outputs, summary.json and report.html. Usage: {@code
 * new ScanJob(spark, hbaseConf, options).execute(progress)}.
 */
public record ScanJob(SparkSession spark, Configuration hbaseConf, ScanOptions options)
    implements Job<ScanResult> {
  static final String SUMMARY = "summary.json";
  static final String HTML = "report.html";

  @Override
  public ScanResult execute(Consumer<String> progress) {
    long t0 = System.nanoTime();
    // a report that cannot run fails now, not after a read of the whole window
    ReportRunner.check(spark, options);
    JobSnapshots snapshots = new JobSnapshots(JobSnapshots.SCAN, hbaseConf);
    if (options.source().kind() != Source.Kind.SNAPSHOT) {
      TableName table = TableName.valueOf(options.source().name());
      snapshots.sweepDead(options.source(), progress, "Cannot scan table " + table);
    }
    if (options.source().kind() != Source.Kind.TABLE_VIA_SNAPSHOT) {
      return scan(options.source(), options.source().toString(), t0, progress);
    }
    try (Connection conn = ConnectionFactory.createConnection(hbaseConf);
        Admin admin = conn.getAdmin();
        TemporarySnapshot snap =
            snapshots.take(admin, TableName.valueOf(options.source().name()))) {
      progress.accept(
          "  took snapshot "
              + snap.name()
              + " of table "
              + options.source().name()
              + " (deleted after)");
      return scan(
          Source.snapshot(snap.name()),
          "table " + options.source().name() + " via snapshot " + snap.name(),
          t0,
          progress);
    } catch (IOException e) {
      throw RekeyException.cannot(e, "Cannot scan %s: %s", options.source(), e.getMessage());
    }
  }

  /**
   * Scans {@code from} (a table or snapshot); {@code source} is what the user asked for, in
   * messages and results.
   */
  private ScanResult scan(Source from, String source, long t0, Consumer<String> progress) {
    ScanOptions o = options;
    // where the reports go is checked before the read: a local dir the executors cannot all write
    // is refused here, not found short of rows after it
    OutputDir out = OutputDir.of(o.out(), spark.sparkContext());
    OutputReach.check(spark.sparkContext(), "--out", out, !o.reports().isEmpty());
    // report timestamps (timestamp_millis, CSV/JSON text) are UTC, whatever the machine's zone
    spark.conf().set("spark.sql.session.timeZone", "UTC");
    RegionReader reader = reader(from);
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    try (RegionRead read = reader.open(jsc, hbaseConf)) {
      progress.accept(
          String.format(
              "  scanning %s: %d regions, %d partitions, window %s",
              source, read.regions(), read.partitions(), o.window()));
      progress.accept("  reading " + read.reading());
      progress.accept("  read: " + read.plan().describe());
      boolean forReports = !o.reports().isEmpty();
      RowDecoder decoder = new RowDecoder(o.layout());
      JavaRDD<ScanRecord> records = null;
      if (forReports) {
        records = read.map(new PartitionScan(decoder, o.samples()));
        // one HBase pass feeds the stats and every report, and they all see the same rows
        records.persist(StorageLevel.MEMORY_AND_DISK());
      }
      try {
        List<RegionStats> stats = stats(jsc, read, records, decoder, source);
        progress.accept(
            String.format(
                "  read and decoded %,d rows in %.1f s",
                stats.stream().mapToLong(RegionStats::rows).sum(), (System.nanoTime() - t0) / 1e9));
        failOnUndecodable(o, source, stats);
        if (from.kind() == Source.Kind.SNAPSHOT) {
          requireSnapshot(from.name(), source);
        }
        List<RegionTotals> perRegion =
            RegionTotals.of(stats, read.regions(), o.splitsPerRegion(), startKeys(from));

        if (forReports) {
          registerViews(records, o);
        }

        out.create();
        List<ReportOutput> reports = new ArrayList<>();
        for (ReportFile report : o.reports()) {
          reports.add(new ReportWrite(spark, o).run(report, out, progress));
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        ScanResult result =
            new ScanResult(
                source,
                o.layout().name(),
                o.window(),
                read.regions(),
                read.partitions(),
                o.splitsPerRegion(),
                perRegion,
                stats,
                reports,
                out.display(out.root()),
                out.display(out.resolve(SUMMARY)),
                out.display(out.resolve(HTML)),
                ms,
                read.reading(),
                read.plan().describe(),
                read.regionScans());
        out.write(SUMMARY, result.toJson());
        out.write(HTML, HtmlReport.render(result));
        return result;
      } finally {
        if (records != null) {
          // blocking: an async removal still running at exit prints RejectedExecutionException
          records.unpersist(true);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The table or snapshot read as the options ask: window, key ranges, families, splits. */
  private RegionReader reader(Source from) {
    ScanOptions o = options;
    return (from.kind() == Source.Kind.TABLE
            ? RegionReader.table(TableName.valueOf(from.name()))
            : RegionReader.snapshot(from.name()))
        .timeRange(
            o.window().from(),
            o.window().to()) // cells outside the window are never read, pruned or not
        .plan(o.readPlan())
        .families(o.families())
        .splitsPerRegion(o.splitsPerRegion())
        .caching(o.caching());
  }

  /**
   * Every partition's stats, from the cached records when reports run, else folded from the cells
   * (without reports the stats are all the job makes: no row is built or kept); one per partition.
   */
  private List<RegionStats> stats(
      JavaSparkContext jsc,
      RegionRead read,
      JavaRDD<ScanRecord> records,
      RowDecoder decoder,
      String source) {
    boolean forReports = records != null;
    List<RegionStats> stats;
    try (JobPhase phase =
        JobPhase.start(
            jsc.sc(),
            "scan: read and decode %s%s",
            JobPhase.count(read.regions(), "region"),
            read.partitions() == read.regions()
                ? ""
                : " as " + JobPhase.count(read.partitions(), "partition"))) {
      stats =
          RegionStats.dedupe(
              forReports
                  ? records.filter(ScanRecord::isStats).map(ScanRecord::stats).collect()
                  : read.fold(ScanTally.fold(decoder, options.samples())).collect());
    }
    if (stats.size() != read.partitions()) {
      throw RekeyException.cannot(
          "Cannot scan %s: got stats from %s of %s partitions; some partitions" + " were not read",
          source, stats.size(), read.partitions());
    }
    return stats;
  }

  /** The report views (scan_rows, scan_cells) over the cached rows, decoded again per block. */
  private void registerViews(JavaRDD<ScanRecord> records, ScanOptions o) {
    ScanViews views = new ScanViews(o.layout(), o.columns());
    RowDecoder decoder = new RowDecoder(o.layout());
    JavaRDD<DecodedRowAt> rows =
        records.filter(r -> !r.isStats()).flatMap(r -> decoded(r, decoder));
    spark
        .createDataFrame(rows.map(r -> views.row(r.row(), r.partition())), views.rowSchema())
        .createOrReplaceTempView(ScanViews.ROWS);
    spark
        .createDataFrame(
            rows.flatMap(r -> views.cells(r.row(), r.partition()).iterator()), views.cellSchema())
        .createOrReplaceTempView(ScanViews.CELLS);
  }

  /**
   * The snapshot read must still be there after the read: one deleted mid-read can end its splits
   * early without an error, so the stats (and the reports over the cached rows) would be short.
   * Else nothing is written.
   */
  private void requireSnapshot(String snapshot, String source) throws IOException {
    new JobSnapshots(JobSnapshots.SCAN, hbaseConf)
        .requireAfterRead(snapshot, "Cannot scan " + source, "No report was written");
  }

  /** The rows of a cached block, decoded (static: a closure must not capture the job). */
  private static java.util.Iterator<DecodedRowAt> decoded(ScanRecord block, RowDecoder decoder) {
    java.util.Iterator<RowBlock.Row> rows = block.rows().rowsInOrder();
    return new java.util.Iterator<>() {
      @Override
      public boolean hasNext() {
        return rows.hasNext();
      }

      @Override
      public DecodedRowAt next() {
        RowBlock.Row r = rows.next();
        return new DecodedRowAt(decoder.decode(r.key(), r.cells()), block.partition());
      }
    };
  }

  /** A decoded row and its partition: what the view rows are built from. */
  record DecodedRowAt(DecodedRow row, int partition) implements java.io.Serializable {}

  private static void failOnUndecodable(ScanOptions o, String source, List<RegionStats> stats) {
    long bad = stats.stream().mapToLong(RegionStats::undecodable).sum();
    if (bad == 0) {
      return;
    }
    long rows = stats.stream().mapToLong(RegionStats::rows).sum();
    List<String> samples = new ArrayList<>();
    for (RegionStats s : stats) {
      for (String x : s.samples()) {
        if (samples.size() < o.samples()) {
          samples.add("partition " + s.partition() + ": " + x);
        }
      }
    }
    throw RekeyException.cannot(
        "Cannot scan %s with layout %s (%s): %s of %s row keys do not decode."
            + " Samples (key hex: reason):\n  %s\nCheck that --layout is the layout"
            + " the table was written with (e.g. telemetry-v1 for the legacy table,"
            + " telemetry-v2 for the salted one).",
        source,
        o.layout().name(),
        o.layout().source(),
        bad,
        (bad + rows),
        String.join("\n  ", samples));
  }

  /**
   * The regions' start keys in the input format's split order (to place partitions in regions): key
   * order, for a live table and a snapshot alike.
   */
  private List<byte[]> startKeys(Source from) {
    if (from.kind() == Source.Kind.SNAPSHOT) {
      try {
        org.apache.hadoop.fs.Path rootDir = CommonFSUtils.getRootDir(hbaseConf);
        FileSystem fs = rootDir.getFileSystem(hbaseConf);
        return TableSnapshotInputFormatImpl.getRegionInfosFromManifest(
                TableSnapshotInputFormatImpl.getSnapshotManifest(
                    hbaseConf, from.name(), rootDir, fs))
            .stream()
            .map(RegionInfo::getStartKey)
            .sorted(Arrays::compareUnsigned) // KeyRangeSnapshotInputFormat lists them in key order
            .toList();
      } catch (IOException e) {
        throw RekeyException.cannot(e, "Cannot read the regions of %s: %s", from, e.getMessage());
      }
    }
    try (Connection conn = ConnectionFactory.createConnection(hbaseConf);
        RegionLocator locator = conn.getRegionLocator(TableName.valueOf(from.name()))) {
      return Arrays.asList(locator.getStartKeys());
    } catch (IOException e) {
      throw RekeyException.cannot(
          e, "Cannot read the region boundaries of %s: %s", from, e.getMessage());
    }
  }
}

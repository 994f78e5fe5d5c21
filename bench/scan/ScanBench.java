// Benchmark (not part of rekey): rows/s of the region-parallel scan (ScanJob: one Spark task per region, keys decoded
// with the layout, per-region stats, no reports so no rows kept; on the live table, and on a snapshot taken in the timed
// part) vs one client scanner over the same table (same Scan settings: time range,
// caching, block cache off; every key decoded with the same RowDecoder), in the same JVM and run, alternating. Each
// round also times the snapshot read pass (the jobs' read: rows streamed as cells and counted; and the same read as
// Results) against the raw HFile pass, and the scan job on the snapshot with a report (sql/user_daily_activity.sql:
// the rows kept for Spark SQL), its read phase against the same raw pass. Run through bench/scan/run.sh.
//   java <spark flags> -cp "$JAR:$(cat spark-jobs/target/launch.classpath):$CLIENT_CONF_DIR" ScanBench.java ROWS REGIONS ROUNDS MASTER
import dev.rekey.bench.HFileFloor;
import dev.rekey.demo.EventGenerator;
import dev.rekey.demo.EventsTable;
import dev.rekey.read.RegionRead;
import dev.rekey.read.RegionReader;
import dev.rekey.common.RowDecoder;
import dev.rekey.common.TimeWindow;
import dev.rekey.jobs.scan.ScanJob;
import dev.rekey.jobs.scan.ScanOptions;
import dev.rekey.jobs.scan.ScanResult;
import dev.rekey.rowkey.KeyLayout;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

public class ScanBench {
  public static void main(String[] a) throws Exception {
    int rows = Integer.parseInt(a[0]);
    int regions = Integer.parseInt(a[1]);
    int rounds = Integer.parseInt(a[2]);
    String master = a[3];
    Path pid = Path.of(a.length > 4 ? a[4] : ".rekey/hbase/hbase.pid");
    TableName table = TableName.valueOf("bench_scan_events");
    KeyLayout layout = KeyLayout.load(Path.of("conf/layouts/events-v2.yaml"));
    Configuration conf = HBaseConfiguration.create();
    // the local filesystem bin/rekey's local masters use (SparkSubmitLauncher): no chmod process per file
    conf.set("fs.file.impl", "dev.rekey.embedded.NioLocalFileSystem");
    EventGenerator gen = EventGenerator.oneDay(rows, Math.max(1, rows / 10));
    TimeWindow day = TimeWindow.ofDay("2026-11-29");
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      if (!admin.tableExists(table) || admin.getRegions(table).size() != regions || count(conn, table, layout, day) != rows) {
        if (admin.tableExists(table)) {
          admin.disableTable(table);
          admin.deleteTable(table);
        }
        EventsTable.create(admin, table, layout, regions);
        long t0 = System.nanoTime();
        EventsTable.write(conn, table, layout, gen);
        admin.flush(table);
        dev.rekey.bench.Compacted.majorCompact(admin, table);
        System.out.printf("wrote %,d events into %s (%d regions) in %.1f s%n", rows, table, regions,
            (System.nanoTime() - t0) / 1e9);
      }
      SparkSession spark = SparkSession.builder().master(master).appName("bench-scan")
          .config("spark.hadoop.fs.file.impl", "dev.rekey.embedded.NioLocalFileSystem")
          .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4")
          .config("spark.hadoopRDD.ignoreEmptySplits", "false").config("spark.driver.host", "127.0.0.1")
          .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
      ScanOptions options = ScanOptions.builder().table(table.getNameAsString()).layout(layout).window(day)
          .out(Path.of("target/bench/scan/out")).build();
      new ScanJob(spark, conf, options).execute(); // warm-up: JIT, Spark, region locations
      count(conn, table, layout, day);
      JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      String snapshot = "bench_scan_events_snap";
      if (admin.listSnapshots().stream().anyMatch(x -> x.getName().equals(snapshot))) {
        admin.deleteSnapshot(snapshot);
      }
      admin.snapshot(snapshot, table);
      ScanOptions snapOptions = ScanOptions.builder().snapshot(snapshot).layout(layout).window(day)
          .out(Path.of("target/bench/scan/out-snapshot")).build();
      new ScanJob(spark, conf, snapOptions).execute(); // warm-up of the snapshot path (the store-file reader)
      // the nightly scan's usual form: the same snapshot scanned with a report (rows kept for Spark SQL)
      ScanOptions reportOptions = ScanOptions.builder().snapshot(snapshot).layout(layout).window(day)
          .report(dev.rekey.jobs.scan.ReportFile.load(Path.of("sql/user_daily_activity.sql")))
          .out(Path.of("target/bench/scan/out-report")).build();
      new ScanJob(spark, conf, reportOptions).execute(); // warm-up of the report path
      System.out.printf("%-6s %14s %14s %14s %14s %10s %10s %10s%n", "round", "scan job r/s", "raw read r/s",
          "snap job r/s", "single r/s", "job/single", "raw/single", "snap/single");
      double sumSnap = 0;
      double sumJob = 0;
      double sumRaw = 0;
      double sumFloor = 0;
      for (int r = 1; r <= rounds; r++) {
        double[] c0 = cpu(pid);
        long t0 = System.nanoTime();
        ScanResult res = new ScanJob(spark, conf, options).execute();
        double jobSec = (System.nanoTime() - t0) / 1e9;
        double job = res.rows() / jobSec;
        double[] c1 = cpu(pid);
        long t1 = System.nanoTime();
        long raw;
        try (RegionRead read = RegionReader.table(table).timeRange(day.from(), day.to()).open(jsc, conf)) {
          raw = read.rows().count(); // the same region-parallel read, without decoding, stats or caching
        }
        double rawSec = (System.nanoTime() - t1) / 1e9;
        double rawRate = raw / rawSec;
        double[] c2 = cpu(pid);
        // the nightly way to scan without RegionServer load: take a snapshot, scan it (both timed), drop it
        admin.deleteSnapshot(snapshot);
        long ts = System.nanoTime();
        admin.snapshot(snapshot, table);
        ScanResult snapRes = new ScanJob(spark, conf, snapOptions).execute();
        double snapSec = (System.nanoTime() - ts) / 1e9;
        double snap = snapRes.rows() / snapSec;
        double[] c2b = cpu(pid); // the snapshot job's own CPU (the read pass and the floor follow)
        // the snapshot read pass (the shared reader's rows counted, nothing else) against the floor: the same
        // snapshot's HFiles read by HBase's own HFile reader, one thread per core
        // the jobs' read (scan, reconcile, analyze, backfill): rows streamed as cells, counted
        long tp = System.nanoTime();
        long snapRead;
        try (RegionRead read = RegionReader.snapshot(snapshot).timeRange(day.from(), day.to()).open(jsc, conf)) {
          snapRead = dev.rekey.read.ReaderPass.fold(read)[0];
        }
        double snapReadSec = (System.nanoTime() - tp) / 1e9;
        // the same read as Results (RegionRead.rows(), for a user's own Spark code)
        long tq = System.nanoTime();
        long asResults;
        try (RegionRead read = RegionReader.snapshot(snapshot).timeRange(day.from(), day.to()).open(jsc, conf)) {
          asResults = read.rows().count();
        }
        double resultsSec = (System.nanoTime() - tq) / 1e9;
        HFileFloor.Pass floor = HFileFloor.read(conf, snapshot, Runtime.getRuntime().availableProcessors());
        System.out.printf("  snapshot read pass (cell stream) %.2f s (%,d rows), as Results %.2f s, raw HFile pass "
            + "%.2f s (%,d rows, %,d cells, %d files, %d threads): %.2fx the floor (as Results %.2fx)%n", snapReadSec,
            snapRead, resultsSec, floor.seconds(), floor.rows(), floor.cells(), floor.files(),
            Runtime.getRuntime().availableProcessors(), snapReadSec / floor.seconds(), resultsSec / floor.seconds());
        sumFloor += snapReadSec / floor.seconds();
        // the scan with a report: the job's time, and its read phase (rows read, decoded and cached)
        double[] readPhase = {Double.NaN};
        long tr = System.nanoTime();
        ScanResult reportRes = new ScanJob(spark, conf, reportOptions).execute(line -> {
          java.util.regex.Matcher m = java.util.regex.Pattern.compile("read and decoded .* rows in ([0-9.]+) s")
              .matcher(line);
          if (m.find()) {
            readPhase[0] = Double.parseDouble(m.group(1));
          }
        });
        double reportSec = (System.nanoTime() - tr) / 1e9;
        System.out.printf("  scan job on the snapshot with a report (sql/user_daily_activity.sql): %.2f s, of which "
            + "read, decoded and cached %.2f s (%.2fx the raw HFile pass)%n", reportSec, readPhase[0],
            readPhase[0] / floor.seconds());
        double[] c3 = cpu(pid);
        long t2 = System.nanoTime();
        long n = count(conn, table, layout, day);
        double singleSec = (System.nanoTime() - t2) / 1e9;
        double single = n / singleSec;
        double[] c4 = cpu(pid);
        System.out.printf("  cpu: scan job %s; raw read %s; snapshot job %s; single scanner %s%n",
            cores(c0, c1, jobSec), cores(c1, c2, rawSec), cores(c2, c2b, snapSec), cores(c3, c4, singleSec));
        if (n != res.rows() || n != raw || n != snapRes.rows() || n != snapRead || n != floor.rows()
            || n != asResults || n != reportRes.rows()) {
          throw new IllegalStateException("row counts differ: job " + res.rows() + ", raw " + raw + ", single " + n);
        }
        sumJob += job / single;
        sumRaw += rawRate / single;
        sumSnap += snap / single;
        System.out.printf("%-6d %,14.0f %,14.0f %,14.0f %,14.0f %9.2fx %9.2fx %9.2fx   (%d partitions, %,d rows)%n", r,
            job, rawRate, snap, single, job / single, rawRate / single, snap / single, res.partitions(), n);
        record(r, "scan job, live table", n, jobSec, singleSec);
        record(r, "raw region-parallel read, live table", n, rawSec, singleSec);
        record(r, "scan job on a snapshot (taken inside the timed part)", n, snapSec, singleSec);
        record(r, "snapshot read pass", "raw HFile pass (one thread per core)", n, snapReadSec, floor.seconds(),
            "0.67");
        record(r, "snapshot read as Results", "raw HFile pass (one thread per core)", n, resultsSec,
            floor.seconds(), "0.67");
        record(r, "scan with a report: read phase", "raw HFile pass (one thread per core)", n, readPhase[0],
            floor.seconds(), "0.67");
      }
      System.out.printf("mean vs the single scanner: scan job %.2fx, raw region-parallel read %.2fx, scan job on a "
          + "snapshot %.2fx, over %d rounds; snapshot read pass %.2fx the raw HFile pass's time%n", sumJob / rounds,
          sumRaw / rounds, sumSnap / rounds, rounds, sumFloor / rounds);
      spark.stop();
    }
  }

  /** Appends a round's result to target/bench/results.jsonl (bench/record.py), for the benchmarks notebook. */
  static void record(int round, String variant, long rows, double seconds, double singleSeconds) throws Exception {
    record(round, variant, "one client scanner", rows, seconds, singleSeconds, "1.8");
  }

  static void record(int round, String variant, String baseline, long rows, double seconds, double baseSeconds,
      String target) throws Exception {
    Process p = new ProcessBuilder("python3", "bench/record.py", "scan", Integer.toString(round), variant,
        baseline, Long.toString(rows), Double.toString(seconds), Double.toString(baseSeconds),
        Double.toString(baseSeconds / seconds), target).inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("bench/record.py failed for " + variant);
    }
  }

  /** CPU seconds used so far by this JVM and by the embedded HBase server (its pid file), to see who uses the cores. */
  static double[] cpu(Path hbasePid) throws Exception {
    double self = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
    double server = 0;
    if (java.nio.file.Files.exists(hbasePid)) {
      String pid = java.nio.file.Files.readString(hbasePid).trim();
      String[] f = java.nio.file.Files.readString(Path.of("/proc", pid, "stat")).replaceAll(".*\\) ", "").split(" ");
      server = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime + stime, in clock ticks
    }
    return new double[] {self, server};
  }

  static String cores(double[] before, double[] after, double seconds) {
    return String.format("client %.2f + server %.2f cores", (after[0] - before[0]) / seconds,
        (after[1] - before[1]) / seconds);
  }

  /** One client scanner over the whole table, decoding every key: the baseline. */
  static long count(Connection conn, TableName table, KeyLayout layout, TimeWindow w) throws Exception {
    RowDecoder decoder = new RowDecoder(layout);
    // the job's own scan settings: block cache off, HBase's caching (RegionReader.DEFAULT_CACHING), the window
    Scan scan = RegionReader.table(table).timeRange(w.from(), w.to()).scan();
    long n = 0;
    try (Table t = conn.getTable(table); ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        decoder.decode(r);
        n++;
      }
    }
    return n;
  }
}

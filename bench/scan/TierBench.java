// Benchmark (not part of rekey): time-tiered backfill output and the nightly report it serves. A 30-day time-first
// events table (ts | userId) backfilled into events-v2 (md5(userId)[0..2] | userId | reversed ts, 8 regions) with
// --time-tiers P1D, one HFile per day per region.
//   mode scan:     on a snapshot of the tiered table, the nightly one-day scan job with sql/user_daily_activity.sql
//                  (the other days' files skipped) against the full-table scan job, and against the same day on a
//                  snapshot of the same events backfilled without tiers (one file per region: every cell read, as
//                  before tiers); the day's report must equal the untiered read's and the full report cut to the day.
//   mode backfill: the backfill with --time-tiers P1D against the backfill without tiers, same snapshot, alternating.
// Same JVM for every timed pass (JVM start excluded); round 0 warms the JIT up (recorded as warm-up). Run through
// bench/scan/tiers.sh or bench/backfill/tiers.sh.
import dev.rekey.demo.EventGenerator;
import dev.rekey.demo.EventsTable;
import dev.rekey.jobs.backfill.Backfill;
import dev.rekey.jobs.backfill.BackfillOptions;
import dev.rekey.jobs.backfill.BackfillResult;
import dev.rekey.jobs.backfill.plan.TierRequest;
import dev.rekey.common.TimeWindow;
import dev.rekey.read.Source;
import dev.rekey.jobs.scan.ReportFile;
import dev.rekey.jobs.scan.ScanJob;
import dev.rekey.jobs.scan.ScanOptions;
import dev.rekey.jobs.scan.ScanResult;
import dev.rekey.rowkey.KeyLayout;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

public class TierBench {
  static final KeyLayout EVENTS_V1 = KeyLayout.parse(
      "name: events-v1\ntime: ts\nprefix:\n  kind: none\nfields:\n  - name: ts\n    type: long\n"
          + "    signed: false\n  - name: userId\n    type: string\n", "events-v1");
  static final KeyLayout EVENTS_V2 = KeyLayout.load(Path.of("conf/layouts/events-v2.yaml"));
  static final int REGIONS = 8;

  public static void main(String[] a) throws Exception {
    String mode = a[0];
    int days = Integer.parseInt(a[1]);
    int perDay = Integer.parseInt(a[2]);
    int rounds = Integer.parseInt(a[3]);
    long rows = (long) days * perDay;
    String name = "bench_tiers_" + days + "x" + perDay;
    TableName source = TableName.valueOf(name + "_v1");
    Configuration conf = HBaseConfiguration.create();
    conf.set("fs.file.impl", "dev.rekey.embedded.NioLocalFileSystem");
    SparkSession spark = SparkSession.builder().master("local[2]").appName("bench-tiers")
        .config("spark.hadoop.fs.file.impl", "dev.rekey.embedded.NioLocalFileSystem")
        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4")
        .config("spark.hadoopRDD.ignoreEmptySplits", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      String sourceSnap = source.getNameAsString() + "_snap";
      if (!admin.tableExists(source)) {
        EventGenerator gen = EventGenerator.days(perDay, 10_000, days);
        long t0 = System.nanoTime();
        EventsTable.create(admin, source, EVENTS_V1, 1);
        EventsTable.write(conn, source, EVENTS_V1, gen);
        admin.flush(source);
        dev.rekey.bench.Compacted.majorCompact(admin, source);
        System.out.printf("wrote %,d events over %d days into %s in %.1f s%n", rows, days, source,
            (System.nanoTime() - t0) / 1e9);
      }
      if (admin.listSnapshots().stream().noneMatch(x -> x.getName().equals(sourceSnap))) {
        admin.snapshot(sourceSnap, source);
      }
      if (mode.equals("backfill")) {
        backfills(spark, conf, admin, name, sourceSnap, rows, rounds);
      } else {
        scans(spark, conf, admin, name, sourceSnap, rows, rounds);
      }
    }
    spark.stop();
  }

  /** An empty events-v2 target: 8 regions, compactions off (the loaded files stay as loaded), 60 files before
   *  writes block (as date-tiered compaction sets it). */
  static void recreate(Admin admin, TableName t) throws Exception {
    if (admin.tableExists(t)) {
      admin.disableTable(t);
      admin.deleteTable(t);
    }
    admin.createTable(TableDescriptorBuilder.newBuilder(t).setCompactionEnabled(false)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(EventsTable.FAMILY)
            .setConfiguration("hbase.hstore.blockingStoreFiles", "60").build())
        .build(), EVENTS_V2.splitPoints(REGIONS).toArray(new byte[0][]));
  }

  static double backfill(SparkSession spark, Configuration conf, Admin admin, TableName target, String snap,
      boolean tiered) throws Exception {
    recreate(admin, target);
    BackfillOptions.Builder b = BackfillOptions.builder().sourceSnapshot(snap).sourceLayout(EVENTS_V1)
        .targetTable(target.getNameAsString()).targetLayout(EVENTS_V2)
        .staging(Path.of("target/bench/tiers/staging-" + System.nanoTime()).toAbsolutePath().toString());
    if (tiered) {
      b.timeTiers(TierRequest.parse("P1D"));
    }
    long t0 = System.nanoTime();
    BackfillResult r = new Backfill(spark, conf, b.build()).execute(l -> {
      if (l.startsWith("Time tiers") || l.startsWith("Write path")) {
        System.out.println("  " + l);
      }
    });
    double s = (System.nanoTime() - t0) / 1e9;
    if (!r.verified()) {
      throw new IllegalStateException("backfill into " + target + " not verified");
    }
    System.out.printf("  %s: %.2f s (write %.2f, load %.2f, verify %.2f)%n", tiered ? "tiered" : "untiered", s,
        r.timings().writeSeconds(), r.timings().loadSeconds(), r.timings().verifySeconds());
    return s;
  }

  static void backfills(SparkSession spark, Configuration conf, Admin admin, String name, String snap, long rows,
      int rounds) throws Exception {
    TableName tiered = TableName.valueOf(name + "_bf_tiered");
    TableName plain = TableName.valueOf(name + "_bf_plain");
    System.out.printf("%-6s %14s %14s %10s%n", "round", "tiered s", "untiered s", "tiered/un");
    for (int r = 0; r <= rounds; r++) {
      // alternate which goes first, so neither always follows the other's garbage
      double t, u;
      if (r % 2 == 0) {
        t = backfill(spark, conf, admin, tiered, snap, true);
        u = backfill(spark, conf, admin, plain, snap, false);
      } else {
        u = backfill(spark, conf, admin, plain, snap, false);
        t = backfill(spark, conf, admin, tiered, snap, true);
      }
      System.out.printf("%-6d %14.2f %14.2f %9.3fx%s%n", r, t, u, t / u, r == 0 ? "   (warm-up)" : "");
      record("backfill tiers", r, "backfill --time-tiers P1D", "the same backfill without tiers", rows, t, u,
          String.valueOf(1 / 1.3));
    }
  }

  static void scans(SparkSession spark, Configuration conf, Admin admin, String name, String sourceSnap, long rows,
      int rounds) throws Exception {
    // the same events backfilled twice: with --time-tiers P1D (a file per day per region) and without (one file per
    // region holding every day: what a backfill left before tiers, so a day's read reads every cell)
    String snap = target(spark, conf, admin, TableName.valueOf(name + "_scan"), sourceSnap, true);
    String plain = target(spark, conf, admin, TableName.valueOf(name + "_scan_plain"), sourceSnap, false);
    TimeWindow day = TimeWindow.ofDay("2026-11-29");
    ReportFile report = ReportFile.load(Path.of("sql/user_daily_activity.sql").toAbsolutePath());
    System.out.printf("%-6s %10s %10s %12s %9s %11s  %s%n", "round", "day s", "full s", "untiered s", "full/day",
        "untiered/day", "store files of the day's read");
    for (int r = 0; r <= rounds; r++) {
      ScanResult d = scan(spark, conf, snap, day, report, "day");
      ScanResult f = scan(spark, conf, snap, TimeWindow.ALL, report, "full");
      ScanResult u = scan(spark, conf, plain, day, report, "untiered");
      Dataset<Row> dayReport = spark.read().parquet(d.reports().get(0).path());
      Dataset<Row> untieredReport = spark.read().parquet(u.reports().get(0).path());
      Dataset<Row> cut = spark.read().parquet(f.reports().get(0).path())
          .filter(functions.col("day").equalTo(functions.lit(java.sql.Date.valueOf("2026-11-29"))));
      long diff = dayReport.exceptAll(untieredReport).count() + untieredReport.exceptAll(dayReport).count()
          + dayReport.exceptAll(cut).count() + cut.exceptAll(dayReport).count();
      if (diff != 0 || dayReport.count() == 0 || d.rows() != u.rows()) {
        throw new IllegalStateException("the day's reports differ: " + diff + " rows differ, " + dayReport.count()
            + " rows");
      }
      double ds = d.millis() / 1000.0, fs = f.millis() / 1000.0, us = u.millis() / 1000.0;
      System.out.printf("%-6d %10.2f %10.2f %12.2f %8.2fx %10.2fx  %s | untiered: %s%s%n", r, ds, fs, us, fs / ds,
          us / ds, d.storeFilesLine(), u.storeFilesLine(), r == 0 ? "   (warm-up)" : "");
      record("scan tiers", r, "one-day scan job on a --time-tiers P1D snapshot", "full-table scan job", rows, ds, fs,
          "5");
      record("scan tiers", r, "one-day scan job on a --time-tiers P1D snapshot",
          "the same day on an untiered backfill (every cell read)", rows, ds, us, "");
    }
  }

  /** A backfilled events-v2 table and its snapshot, made once and reused; returns the snapshot. */
  static String target(SparkSession spark, Configuration conf, Admin admin, TableName t, String sourceSnap,
      boolean tiered) throws Exception {
    String snap = t.getNameAsString() + "_snap";
    if (admin.listSnapshots().stream().noneMatch(x -> x.getName().equals(snap))) {
      backfill(spark, conf, admin, t, sourceSnap, tiered);
      admin.snapshot(snap, t);
    }
    return snap;
  }

  static ScanResult scan(SparkSession spark, Configuration conf, String snap, TimeWindow w, ReportFile report,
      String name) {
    ScanOptions o = ScanOptions.builder().source(Source.snapshot(snap)).layout(EVENTS_V2).window(w).report(report)
        .out(Path.of("target/bench/tiers/" + name)).build();
    return new ScanJob(spark, conf, o).execute();
  }

  /** Appends a round's result to target/bench/results.jsonl (bench/record.py); round 0 is the JIT's warm-up. */
  static void record(String bench, int round, String variant, String baseline, long rows, double seconds,
      double baseSeconds, String target) throws Exception {
    java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("python3", "bench/record.py", bench,
        Integer.toString(round), variant, baseline, Long.toString(rows), Double.toString(seconds),
        Double.toString(baseSeconds), Double.toString(baseSeconds / seconds), target));
    if (round == 0) {
      cmd.add("warm-up");
    }
    Process p = new ProcessBuilder(cmd).inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("bench/record.py failed for " + variant);
    }
  }
}

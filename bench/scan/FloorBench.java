// Benchmark (not part of rekey): the snapshot read pass against its floor, in one warm JVM. Per round, interleaved:
// the shared reader's snapshot read as Results (RegionReader.snapshot(...).open(...).rows(), counted, nothing else:
// opening included; the read for code of one's own) and the raw HFile pass (HFileFloor: HBase's own HFile reader over the same snapshot's store files, one
// thread per core, no merge, no Spark), then the same read with rekey.snapshot.storeFileReader=false (every region
// through HBase's region scanner, the reader before 2026-12-01 16:40 UTC), the same record readers without Spark
// (ReaderPass, as Results and as cells), and the jobs' read pass (RegionRead.fold: rows streamed as cells into a sink that counts them,
// opening included; every job reads the cell stream, by fold or by RegionRead.map), and the raw HFile pass as a Spark
// job (a task per file: the floor with Spark's own cost per job and task in it), the last two also by their tasks' CPU
// (TaskCpu: the read's work per row under Spark, without a job's fixed part). The first two are timed in wall seconds and in this JVM's CPU seconds (all its
// threads: on a machine shared with other builds, CPU time is the steadier figure of what a pass costs). Reuses bench/scan/run.sh's table (bench_scan_events, events-v2), written if
// it does not hold ROWS rows in REGIONS regions. Run through bench/scan/floor.sh.
import dev.rekey.bench.HFileFloor;
import dev.rekey.bench.TaskCpu;
import dev.rekey.bench.WarmRounds;
import dev.rekey.demo.EventGenerator;
import dev.rekey.demo.EventsTable;
import dev.rekey.read.RegionRead;
import dev.rekey.read.ReaderPass;
import dev.rekey.read.RegionReader;
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
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

public class FloorBench {
  public static void main(String[] a) throws Exception {
    int rows = Integer.parseInt(a[0]);
    int regions = Integer.parseInt(a[1]);
    int rounds = Integer.parseInt(a[2]);
    String master = a[3];
    TableName table = TableName.valueOf("bench_scan_events");
    KeyLayout layout = KeyLayout.load(Path.of("conf/layouts/events-v2.yaml"));
    Configuration conf = HBaseConfiguration.create();
    // the local filesystem bin/rekey's local masters use (SparkSubmitLauncher): no chmod process per file
    conf.set("fs.file.impl", "dev.rekey.embedded.NioLocalFileSystem");
    String snapshot = "bench_scan_events_floor";
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      if (!admin.tableExists(table) || admin.getRegions(table).size() != regions || count(conn, table) != rows) {
        if (admin.tableExists(table)) {
          admin.disableTable(table);
          admin.deleteTable(table);
        }
        EventsTable.create(admin, table, layout, regions);
        long t0 = System.nanoTime();
        EventsTable.write(conn, table, layout, EventGenerator.oneDay(rows, Math.max(1, rows / 10)));
        admin.flush(table);
        dev.rekey.bench.Compacted.majorCompact(admin, table);
        System.out.printf("wrote %,d events into %s (%d regions) in %.1f s%n", rows, table, regions,
            (System.nanoTime() - t0) / 1e9);
      }
      if (admin.listSnapshots().stream().anyMatch(x -> x.getName().equals(snapshot))) {
        admin.deleteSnapshot(snapshot);
      }
      admin.snapshot(snapshot, table);
      SparkSession spark = SparkSession.builder().master(master).appName("bench-floor")
          .config("spark.hadoop.fs.file.impl", "dev.rekey.embedded.NioLocalFileSystem")
          .config("spark.ui.enabled", "false").config("spark.hadoopRDD.ignoreEmptySplits", "false")
          .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
      JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      int threads = Runtime.getRuntime().availableProcessors();
      double[] ratio = new double[rounds];
      double[] cpuRatio = new double[rounds];
      double[] hbaseRatio = new double[rounds];
      double[] bareRatio = new double[rounds];
      double[] foldRatio = new double[rounds];
      double[] bareStreamRatio = new double[rounds];
      double[] sparkFloorRatio = new double[rounds];
      double[] tasksRatio = new double[rounds];
      TaskCpu taskCpu = TaskCpu.on(jsc.sc());
      // the same read with the store-file reader off: every region through HBase's region scanner
      Configuration viaScanner = new Configuration(conf);
      viaScanner.setBoolean("rekey.snapshot.storeFileReader", false);
      System.out.printf("%-6s %8s %8s %8s %10s %9s %9s %9s %10s %9s %11s %10s %6s %8s %9s %16s %6s %13s %7s %8s%n", "round", "read s", "open s", "floor s",
          "read/floor", "read cpu", "open cpu", "floor cpu", "cpu ratio", "scanner s", "scanner/fl", "no-spark s", "cpu", "fold s", "fold/fl", "cells no-spark s", "/fl",
          "fl in Spark s", "fold/it", "tasks/it");
      for (int r = 0; r < rounds; r++) {
        double c0 = cpu();
        long t0 = System.nanoTime();
        long n;
        double openSec;
        double openCpu;
        try (RegionRead read = RegionReader.snapshot(snapshot).open(jsc, conf)) {
          openSec = (System.nanoTime() - t0) / 1e9;
          openCpu = cpu() - c0;
          n = read.rows().count();
        }
        double readSec = (System.nanoTime() - t0) / 1e9;
        double readCpu = cpu() - c0;
        double c1 = cpu();
        HFileFloor.Pass floor = HFileFloor.read(conf, snapshot, threads);
        double floorCpu = cpu() - c1;
        if (n != floor.rows() || n != rows) {
          throw new IllegalStateException("rows differ: read " + n + ", floor " + floor.rows() + ", written " + rows);
        }
        ratio[r] = readSec / floor.seconds();
        cpuRatio[r] = readCpu / floorCpu;
        long t2 = System.nanoTime();
        long m;
        try (RegionRead read = RegionReader.snapshot(snapshot).open(jsc, viaScanner)) {
          m = read.rows().count();
        }
        double scannerSec = (System.nanoTime() - t2) / 1e9;
        if (m != n) {
          throw new IllegalStateException("rows differ: store files " + n + ", region scanner " + m);
        }
        hbaseRatio[r] = scannerSec / floor.seconds();
        // the same record readers without Spark: the reader's own cost apart from Spark's
        double c3 = cpu();
        ReaderPass.Pass bare = ReaderPass.read(conf, snapshot, threads);
        double bareCpu = cpu() - c3;
        if (bare.rows() != n) {
          throw new IllegalStateException("rows differ: reader without Spark " + bare.rows() + ", read " + n);
        }
        bareRatio[r] = bare.seconds() / floor.seconds();
        // the jobs' read pass: rows streamed as cells into a sink
        TaskCpu.Mark foldMark = taskCpu.mark();
        long t4 = System.nanoTime();
        long[] folded;
        try (RegionRead read = RegionReader.snapshot(snapshot).open(jsc, conf)) {
          folded = ReaderPass.fold(read);
        }
        double foldSec = (System.nanoTime() - t4) / 1e9;
        double foldTasks = taskCpu.secondsSince(foldMark, 1);
        if (folded[0] != n || folded[1] != floor.cells()) {
          throw new IllegalStateException("folded " + folded[0] + " rows, " + folded[1] + " cells; read " + n
              + " rows, floor " + floor.cells() + " cells");
        }
        foldRatio[r] = foldSec / floor.seconds();
        // the same cell stream without Spark: what of the fold is the reader's, what Spark's
        ReaderPass.Pass bareStream = ReaderPass.stream(conf, snapshot, threads);
        if (bareStream.rows() != n || bareStream.cells() != floor.cells()) {
          throw new IllegalStateException("streamed without Spark " + bareStream.rows() + " rows, " + bareStream.cells()
              + " cells; read " + n + " rows, floor " + floor.cells() + " cells");
        }
        bareStreamRatio[r] = bareStream.seconds() / floor.seconds();
        // the floor as a Spark job (a task per file): what any Spark read of these files costs at least
        TaskCpu.Mark floorMark = taskCpu.mark();
        HFileFloor.Pass sparkFloor = HFileFloor.readInSpark(jsc, conf, snapshot);
        tasksRatio[r] = foldTasks / taskCpu.secondsSince(floorMark, 1);
        if (sparkFloor.cells() != floor.cells()) {
          throw new IllegalStateException("the floor in Spark read " + sparkFloor.cells() + " cells, the floor "
              + floor.cells());
        }
        sparkFloorRatio[r] = foldSec / sparkFloor.seconds();
        System.out.printf("%-6d %8.2f %8.2f %8.2f %9.2fx %9.2f %9.2f %9.2f %9.2fx %9.2f %10.2fx %10.2f %6.2f %8.2f %8.2fx %16.2f %5.2fx %13.2f %6.2fx %7.2fx  (%,d rows, %,d cells, %d files)%n",
            r + 1, readSec, openSec, floor.seconds(), ratio[r], readCpu, openCpu, floorCpu, cpuRatio[r], scannerSec,
            hbaseRatio[r], bare.seconds(), bareCpu, foldSec, foldRatio[r], bareStream.seconds(), bareStreamRatio[r], sparkFloor.seconds(), sparkFloorRatio[r], tasksRatio[r], n, floor.cells(),
            floor.files());
      }
      System.out.printf("wall read/floor: %s; cpu read/floor: %s; wall region-scanner read/floor: %s; wall reader "
          + "without Spark/floor: %s; wall fold (rows streamed as cells, opening included)/floor: %s; wall cells "
          + "streamed without Spark/floor: %s; wall fold/the floor as a Spark job (a task per file): %s; the fold's "
          + "tasks' CPU/the Spark floor's: %s (%d threads for "
          + "the floor and the reader without Spark; %s, the first %d warming the JIT up: -Dbench.warmRounds)%n", WarmRounds.summary(ratio), WarmRounds.summary(cpuRatio),
          WarmRounds.summary(hbaseRatio), WarmRounds.summary(bareRatio), WarmRounds.summary(foldRatio), WarmRounds.summary(bareStreamRatio),
          WarmRounds.summary(sparkFloorRatio), WarmRounds.summary(tasksRatio), threads, WarmRounds.counted(rounds),
          WarmRounds.warm(rounds));
      admin.deleteSnapshot(snapshot);
      spark.stop();
    }
  }

  /** CPU seconds used so far by this JVM, all threads. */
  static double cpu() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
  }

  static long count(Connection conn, TableName table) throws Exception {
    Scan scan = new Scan().setCacheBlocks(false).setCaching(1000)
        .setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()));
    long n = 0;
    try (Table t = conn.getTable(table); ResultScanner s = t.getScanner(scan)) {
      for (Result r : s) {
        n++;
      }
    }
    return n;
  }
}

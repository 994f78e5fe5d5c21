// Benchmark (not part of rekey): rows/s of the region-parallel scan (ScanJob: one Spark task per region, keys decoded
// with the layout, per-region stats) vs one client scanner over the same table (same Scan settings: time range,
// caching, block cache off; every key decoded with the same RowDecoder), in the same JVM and run, alternating.
// Run through bench/scan/run.sh.
//   java <spark flags> -cp "$JAR:$(cat spark-jobs/target/launch.classpath):$CLIENT_CONF_DIR" ScanBench.java ROWS REGIONS ROUNDS MASTER
import dev.rekey.demo.EventGenerator;
import dev.rekey.demo.EventsTable;
import dev.rekey.jobs.common.RowDecoder;
import dev.rekey.jobs.scan.ScanJob;
import dev.rekey.jobs.scan.ScanOptions;
import dev.rekey.jobs.scan.ScanResult;
import dev.rekey.jobs.scan.TimeWindow;
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
import org.apache.spark.sql.SparkSession;

public class ScanBench {
  public static void main(String[] a) throws Exception {
    int rows = Integer.parseInt(a[0]);
    int regions = Integer.parseInt(a[1]);
    int rounds = Integer.parseInt(a[2]);
    String master = a[3];
    TableName table = TableName.valueOf("bench_scan_events");
    KeyLayout layout = KeyLayout.load(Path.of("conf/layouts/events-v2.yaml"));
    Configuration conf = HBaseConfiguration.create();
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
        admin.majorCompact(table);
        System.out.printf("wrote %,d events into %s (%d regions) in %.1f s%n", rows, table, regions,
            (System.nanoTime() - t0) / 1e9);
      }
      SparkSession spark = SparkSession.builder().master(master).appName("bench-scan")
          .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4")
          .config("spark.hadoopRDD.ignoreEmptySplits", "false").config("spark.driver.host", "127.0.0.1")
          .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
      ScanOptions options = ScanOptions.builder().table(table.getNameAsString()).layout(layout).window(day)
          .out(Path.of("target/bench/scan/out")).build();
      ScanJob.on(spark).hbaseConf(conf).options(options).execute(); // warm-up: JIT, Spark, region locations
      count(conn, table, layout, day);
      System.out.printf("%-6s %14s %14s %8s%n", "round", "parallel r/s", "single r/s", "ratio");
      double sumRatio = 0;
      for (int r = 1; r <= rounds; r++) {
        long t0 = System.nanoTime();
        ScanResult res = ScanJob.on(spark).hbaseConf(conf).options(options).execute();
        double par = res.rows() / ((System.nanoTime() - t0) / 1e9);
        long t1 = System.nanoTime();
        long n = count(conn, table, layout, day);
        double single = n / ((System.nanoTime() - t1) / 1e9);
        if (n != res.rows()) {
          throw new IllegalStateException("row counts differ: parallel " + res.rows() + ", single " + n);
        }
        sumRatio += par / single;
        System.out.printf("%-6d %,14.0f %,14.0f %7.2fx   (%d partitions, %,d rows)%n", r, par, single, par / single,
            res.partitions(), n);
      }
      System.out.printf("mean ratio %.2fx over %d rounds%n", sumRatio / rounds, rounds);
      spark.stop();
    }
  }

  /** One client scanner over the whole table, decoding every key: the baseline. */
  static long count(Connection conn, TableName table, KeyLayout layout, TimeWindow w) throws Exception {
    RowDecoder decoder = new RowDecoder(layout);
    Scan scan = new Scan().setCacheBlocks(false).setCaching(ScanOptions.DEFAULT_CACHING).setTimeRange(w.from(), w.to());
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

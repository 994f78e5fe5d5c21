// Benchmark (not part of rekey): what window pruning saves. A telemetry-v2 table (salt | ts | deviceId, 16 salt
// regions) holding DAYS days; per round, the scan job for one day (the window read as one key range per salt bucket)
// against the scan job over the whole table, both with sql/device_window_counts.sql, on the live table and on a
// snapshot, in the same JVM (JVM start excluded); the day's report must equal the full scan's report cut to that day.
// Run through bench/scan/prune.sh.
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.read.Source;
import dev.rekey.common.TimeWindow;
import dev.rekey.jobs.scan.ReportFile;
import dev.rekey.jobs.scan.ScanJob;
import dev.rekey.jobs.scan.ScanOptions;
import dev.rekey.jobs.scan.ScanResult;
import dev.rekey.rowkey.KeyLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

public class PruneBench {
  static final long DAY = 86_400_000L;

  public static void main(String[] a) throws Exception {
    int days = Integer.parseInt(a[0]);
    long perDay = Long.parseLong(a[1]);
    int rounds = Integer.parseInt(a[2]);
    TableName table = TableName.valueOf("bench_prune_telemetry_" + days + "x" + perDay);
    KeyLayout layout = KeyLayout.load(Path.of("conf/layouts/telemetry-v2.yaml"));
    Configuration conf = HBaseConfiguration.create();
    // the local filesystem bin/rekey's local masters use (SparkSubmitLauncher): no chmod process per file
    conf.set("fs.file.impl", "dev.rekey.embedded.NioLocalFileSystem");
    long start = TelemetryGenerator.DEFAULT_START - (days - 1) * DAY; // the last day is 2026-11-29
    TelemetryGenerator gen = new TelemetryGenerator(days * perDay, 1000, start, days * DAY);
    TimeWindow day = TimeWindow.ofDay("2026-11-29");
    ReportFile report = ReportFile.load(Path.of("sql/device_window_counts.sql").toAbsolutePath());
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      if (!admin.tableExists(table)) {
        admin.createTable(TableDescriptorBuilder.newBuilder(table)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(LegacyTelemetryTable.FAMILY)).build(),
            layout.splitPoints(16).toArray(new byte[0][]));
        long t0 = System.nanoTime();
        try (BufferedMutator m = conn.getBufferedMutator(table)) {
          for (long i = 0; i < gen.rows(); i++) {
            TelemetryReading r = gen.reading(i);
            Put p = new Put(layout.encode(Map.of("ts", r.ts(), "deviceId", r.deviceId())));
            p.addColumn(LegacyTelemetryTable.FAMILY, LegacyTelemetryTable.VALUE, r.ts(),
                org.apache.hadoop.hbase.util.Bytes.toBytes(r.value()));
            p.addColumn(LegacyTelemetryTable.FAMILY, LegacyTelemetryTable.STATUS, r.ts(),
                org.apache.hadoop.hbase.util.Bytes.toBytes(r.status()));
            m.mutate(p);
          }
        }
        admin.flush(table);
        dev.rekey.bench.Compacted.majorCompact(admin, table);
        System.out.printf("wrote %,d readings over %d days into %s (16 regions) in %.1f s%n", gen.rows(), days, table,
            (System.nanoTime() - t0) / 1e9);
      }
      String snapshot = table.getNameAsString() + "_snap";
      if (admin.listSnapshots().stream().noneMatch(x -> x.getName().equals(snapshot))) {
        admin.snapshot(snapshot, table);
      }
      SparkSession spark = SparkSession.builder().master("local[2]").appName("bench-prune")
          .config("spark.hadoop.fs.file.impl", "dev.rekey.embedded.NioLocalFileSystem")
          .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4")
          .config("spark.hadoopRDD.ignoreEmptySplits", "false").config("spark.driver.host", "127.0.0.1")
          .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
      run(spark, conf, Source.table(table.getNameAsString()), layout, day, report, "warm"); // JIT, Spark
      System.out.printf("%-6s %-9s %12s %12s %10s %14s %14s%n", "round", "source", "day job s", "full job s",
          "day/full", "day rows", "rows scanned");
      for (int r = 1; r <= rounds; r++) {
        for (Source src : List.of(Source.table(table.getNameAsString()), Source.snapshot(snapshot))) {
          ScanResult d = run(spark, conf, src, layout, day, report, "day");
          ScanResult f = run(spark, conf, src, layout, TimeWindow.ALL, report, "full");
          Dataset<Row> dayReport = spark.read().parquet(d.reports().get(0).path());
          Dataset<Row> cut = spark.read().parquet(f.reports().get(0).path())
              .filter(functions.col("window_start_ms").geq(day.from()).and(functions.col("window_start_ms")
                  .lt(day.to())));
          long diff = dayReport.exceptAll(cut).count() + cut.exceptAll(dayReport).count();
          if (diff != 0 || dayReport.count() == 0) {
            throw new IllegalStateException("the day's report differs from the full scan's cut to the day: " + diff
                + " rows differ, " + dayReport.count() + " rows");
          }
          long scanned = d.regionScans().stream().mapToLong(s -> s.rowsScanned()).sum();
          System.out.printf("%-6d %-9s %12.2f %12.2f %9.3fx %,14d %,14d   (%s; report rows %,d equal)%n", r,
              src.kind() == Source.Kind.SNAPSHOT ? "snapshot" : "table", d.millis() / 1000.0,
              f.millis() / 1000.0, (double) d.millis() / f.millis(), d.rows(), scanned, d.pruning(),
              dayReport.count());
        }
      }
      spark.stop();
    }
  }

  static ScanResult run(SparkSession spark, Configuration conf, Source src, KeyLayout layout, TimeWindow w,
      ReportFile report, String name) {
    ScanOptions o = ScanOptions.builder().source(src).layout(layout).window(w).report(report)
        .out(Path.of("target/bench/prune/" + name + "-" + src.kind())).build();
    return new ScanJob(spark, conf, o).execute();
  }
}

package dev.rekey.bench;

import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.jobs.backfill.Backfill;
import dev.rekey.jobs.backfill.BackfillOptions;
import dev.rekey.jobs.backfill.BackfillResult;
import dev.rekey.jobs.backfill.HFileOutput;
import dev.rekey.jobs.backfill.Rekeyer;
import dev.rekey.jobs.common.HBaseConfigs;
import dev.rekey.jobs.common.RegionRead;
import dev.rekey.jobs.common.RegionReader;
import dev.rekey.jobs.createtable.FamilySpec;
import dev.rekey.jobs.createtable.TableCreator;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.SplitPoints;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.HFileOutputFormat2;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * bench/backfill: the same snapshot backfilled by (a) rekey (HFiles + bulk load) and (b) a Put copy through
 * BufferedMutator (same read path and rekeying, the write is what differs), in one run. Not in CI: run it with
 * bench/backfill/run.sh. Rows with -Dbench.rows (default 1,000,000).
 */
@Tag("bench")
class BackfillBench {
  @Test
  void rekeyVersusPutCopy() throws Exception {
    long rows = Long.getLong("bench.rows", 1_000_000L);
    TelemetryGenerator gen = TelemetryGenerator.oneDay(rows, 1000);
    Admin admin = SharedHBase.connection().getAdmin();
    TableName source = SharedHBase.uniqueTable("bench_v1");
    LegacyTelemetryTable.create(admin, source);
    long w0 = System.nanoTime();
    LegacyTelemetryTable.write(SharedHBase.connection(), source, gen, System.out::println);
    admin.flush(source);
    String snap = source.getNameAsString() + "_snap";
    admin.snapshot(snap, source);
    System.out.printf("source: %,d rows written in %.1f s%n", rows, (System.nanoTime() - w0) / 1e9);
    KeyLayout v1 = KeyLayout.load(SharedHBase.rekeyHome().resolve("conf/layouts/telemetry-v1.yaml"));
    KeyLayout v2 = KeyLayout.load(SharedHBase.rekeyHome().resolve("conf/layouts/telemetry-v2.yaml"));

    // the floor: one read pass of the snapshot through the same reader, nothing written
    long tr = System.nanoTime();
    long readRows;
    try (RegionRead read = RegionReader.snapshot(snap).minPartitions(2 * SharedSpark.session().sparkContext()
        .defaultParallelism()).open(
        JavaSparkContext.fromSparkContext(SharedSpark.session().sparkContext()), SharedHBase.conf())) {
      readRows = read.rows().count();
    }
    double readSeconds = (System.nanoTime() - tr) / 1e9;
    // the floor under it: the snapshot's HFiles read by HBase's own HFile reader, one thread per core
    HFileFloor.Pass hfiles = HFileFloor.read(SharedHBase.conf(), snap, Runtime.getRuntime().availableProcessors());

    // the floor of any bulk-load path: read the snapshot and write every cell to HFiles with the target family's
    // settings, in source order (no rekey, no reordering shuffle, no load, no verification)
    TableName floorTable = target(admin, "bench_floor");
    long tw = System.nanoTime();
    writeHFilesInSourceOrder(snap, admin.getDescriptor(floorTable),
        SharedHBase.runRoot().resolve("bench-floor-" + System.nanoTime()).toUri().toString());
    double writeFloorSeconds = (System.nanoTime() - tw) / 1e9;

    TableName a = target(admin, "bench_rekey");
    resetPeaks();
    long t0 = System.nanoTime();
    BackfillResult r = Backfill.on(SharedSpark.session(), SharedHBase.conf()).options(BackfillOptions.builder()
        .sourceSnapshot(snap).sourceLayout(v1).targetTable(a.getNameAsString()).targetLayout(v2)
        .staging(SharedHBase.runRoot().resolve("bench-staging").toString()).build()).execute();
    double rekeySeconds = (System.nanoTime() - t0) / 1e9;
    long rekeyPeak = heapPeakMb();
    System.out.println(String.join("\n", r.lines()));

    TableName b = target(admin, "bench_put");
    resetPeaks();
    long t1 = System.nanoTime();
    long copied = putCopy(snap, v1, v2, b);
    double putSeconds = (System.nanoTime() - t1) / 1e9;
    long putPeak = heapPeakMb();

    System.out.printf("%nBENCH backfill rows=%,d%n", rows);
    System.out.printf("BENCH rekey (HFiles + bulk load): %.1f s, %,.0f rows/s, peak heap %d MB (driver+executor, local[2])%n",
        rekeySeconds, r.accounting().written() / rekeySeconds, rekeyPeak);
    System.out.printf("BENCH put copy (BufferedMutator): %.1f s, %,.0f rows/s, peak heap %d MB%n", putSeconds,
        copied / putSeconds, putPeak);
    System.out.printf("BENCH read-only pass (floor): %.1f s, %,.0f rows/s%n", readSeconds, readRows / readSeconds);
    System.out.printf("BENCH raw HFile pass (%d files, %,d rows, %,d cells, %d threads): %.1f s, %,.0f rows/s; read "
        + "pass / raw HFile pass = %.2fx%n", hfiles.files(), hfiles.rows(), hfiles.cells(),
        Runtime.getRuntime().availableProcessors(), hfiles.seconds(), hfiles.rowsPerSecond(),
        readSeconds / hfiles.seconds());
    System.out.printf("BENCH read + HFile write in source order (floor of any bulk load): %.1f s, %,.0f rows/s;"
        + " Put copy / this = %.2fx%n", writeFloorSeconds, readRows / writeFloorSeconds, putSeconds / writeFloorSeconds);
    System.out.printf("BENCH ratio rekey/put = %.2fx (beyond the read pass: %.2fx)%n", putSeconds / rekeySeconds,
        (putSeconds - readSeconds) / Math.max(0.001, rekeySeconds - readSeconds));
    // the machine-readable results file the benchmarks notebook reads (bench/record.py appends to it)
    java.nio.file.Path home = java.nio.file.Path.of(System.getProperty("rekey.home", ".."));
    Process p = new ProcessBuilder("python3", home.resolve("bench/record.py").toString(), "backfill", "1",
        "rekey backfill (HFiles + bulk load + verify)", "Put copy through BufferedMutator", Long.toString(rows),
        Double.toString(rekeySeconds), Double.toString(putSeconds), Double.toString(putSeconds / rekeySeconds), "5")
        .inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("bench/record.py failed");
    }
  }

  private static TableName target(Admin admin, String prefix) throws Exception {
    TableName t = SharedHBase.uniqueTable(prefix);
    TableCreator.table(t).families(List.of(FamilySpec.parse("d"))).splitPoints(SplitPoints.salt(16)).create(admin);
    return t;
  }

  /**
   * Reads the snapshot (the shared reader, as the backfill does) and writes its cells, already in key order within
   * each read split, through HFileOutputFormat2 configured as the backfill configures it ({@link HFileOutput}): the
   * work every bulk-load path does at the least. The files are deleted afterwards.
   */
  private static void writeHFilesInSourceOrder(String snap, TableDescriptor descriptor, String dir)
      throws Exception {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(SharedSpark.session().sparkContext());
    Configuration out = HFileOutput.forTable(SharedHBase.conf(), descriptor);
    try (RegionRead read = RegionReader.snapshot(snap).minPartitions(2 * SharedSpark.session().sparkContext()
        .defaultParallelism()).open(jsc, SharedHBase.conf())) {
      read.rows().flatMapToPair(row -> {
        List<Tuple2<ImmutableBytesWritable, KeyValue>> cells = new ArrayList<>(row.size());
        ImmutableBytesWritable key = new ImmutableBytesWritable(row.getRow());
        for (Cell c : row.rawCells()) {
          cells.add(new Tuple2<>(key, KeyValueUtil.copyToNewKeyValue(c)));
        }
        return cells.iterator();
      }).saveAsNewAPIHadoopFile(dir, ImmutableBytesWritable.class, KeyValue.class, HFileOutputFormat2.class,
          out);
    } finally {
      Path p = new Path(dir);
      p.getFileSystem(SharedHBase.conf()).delete(p, true);
    }
  }

  /**
   * What teams do without rekey: read, rekey, Put through a BufferedMutator per partition (WAL on). It reads the
   * snapshot exactly as rekey does (the shared reader, at least two tasks per core): only the write differs.
   */
  private static long putCopy(String snap, KeyLayout v1, KeyLayout v2, TableName target) throws Exception {
    Map<String, String> conf = HBaseConfigs.toMap(SharedHBase.conf());
    Rekeyer rekeyer = new Rekeyer(v1, v2);
    String table = target.getNameAsString();
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(SharedSpark.session().sparkContext());
    try (RegionRead read = RegionReader.snapshot(snap).minPartitions(2 * SharedSpark.session().sparkContext()
        .defaultParallelism()).open(jsc, SharedHBase.conf())) {
      return read.rows().mapPartitions(it -> {
        long n = 0;
        try (Connection c = ConnectionFactory.createConnection(HBaseConfigs.fromMap(conf));
            BufferedMutator m = c.getBufferedMutator(new BufferedMutatorParams(TableName.valueOf(table))
                .writeBufferSize(8L << 20))) {
          while (it.hasNext()) {
            Result row = it.next();
            Put p = new Put(rekeyer.rekey(row.getRow()));
            for (Cell cell : row.rawCells()) {
              p.add(cell.getType() == Cell.Type.Put ? rebuild(p.getRow(), cell) : cell);
            }
            m.mutate(p);
            n++;
          }
        }
        return List.of(n).iterator();
      }).reduce(Long::sum);
    }
  }

  private static Cell rebuild(byte[] row, Cell c) {
    return new KeyValue(row, 0, row.length, c.getFamilyArray(), c.getFamilyOffset(),
        c.getFamilyLength(), c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength(), c.getTimestamp(),
        KeyValue.Type.Put, c.getValueArray(), c.getValueOffset(), c.getValueLength());
  }

  private static void resetPeaks() {
    System.gc();
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      p.resetPeakUsage();
    }
  }

  private static long heapPeakMb() {
    long sum = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        sum += p.getPeakUsage().getUsed();
      }
    }
    return sum >> 20;
  }
}

// Benchmark (not part of rekey): the client module against the embedded server, every comparison in the same JVM and
// run, alternating which side goes first per round. Run through bench/client/run.sh.
//   (a) a one-hour window through LayoutReader on telemetry-v2 (16 buckets merged) vs the same rows from the legacy
//       table (telemetry-v1, one region) with one contiguous client scan;
//   (b) the same merged read vs the same 16 bucket scans run one after another (plain scanners, no merge);
//   (c) Get latency p50/p99: LayoutReader.get on v2 vs a plain Get on v1, same natural keys;
//   (d) DualWriter rows/s (two BufferedMutators) vs one BufferedMutator on one table, same rows.
//   java <flags> -cp "$JAR:$(cat spark-jobs/target/launch.classpath):$RUN_DIR/client" ClientBench.java ROWS ROUNDS WROWS
import dev.rekey.client.Column;
import dev.rekey.client.DualWriter;
import dev.rekey.client.LayoutReader;
import dev.rekey.client.MergedScan;
import dev.rekey.client.ScanPlan;
import dev.rekey.client.ReadQuery;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.KeyRange;
import dev.rekey.rowkey.KeyRangePlanner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

public class ClientBench {
  static final long T0 = 1_764_374_400_000L;
  static final long DAY = 86_400_000L;
  static final long HOUR = 3_600_000L;
  static final byte[] D = Bytes.toBytes("d");
  static final byte[] V = Bytes.toBytes("v");
  static final byte[] S = Bytes.toBytes("s");
  static final int DEVICES = 2_000;
  static byte[][] devices = new byte[DEVICES][];
  static long sink;

  public static void main(String[] a) throws Exception {
    int rows = Integer.parseInt(a[0]);
    int rounds = Integer.parseInt(a[1]);
    int wrows = Integer.parseInt(a[2]);
    for (int i = 0; i < DEVICES; i++) {
      devices[i] = MessageDigest.getInstance("MD5").digest(("device-" + i).getBytes(StandardCharsets.UTF_8));
    }
    KeyLayout v1 = KeyLayout.load(Path.of("conf/layouts/telemetry-v1.yaml"));
    KeyLayout v2 = KeyLayout.load(Path.of("conf/layouts/telemetry-v2.yaml"));
    TableName t1 = TableName.valueOf("bench_client_v1");
    TableName t2 = TableName.valueOf("bench_client_v2");
    Configuration conf = HBaseConfiguration.create();
    System.out.printf("cores %d; %,d rows over one day in %s (1 region) and %s (16 salt regions); %d rounds%n",
        Runtime.getRuntime().availableProcessors(), rows, t1, t2, rounds);
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      long hourRows = (long) Math.ceil(rows / 24.0);
      if (!admin.tableExists(t1) || !admin.tableExists(t2) || plainCount(conn, t1, v1, T0, T0 + HOUR) != hourRows) {
        create(admin, t1, v1, false);
        create(admin, t2, v2, true);
        long t0 = System.nanoTime();
        try (DualWriter w = DualWriter.builder(conn).oldTable(t1, v1).newTable(t2, v2).writeBufferSize(8L << 20).build()) {
          for (int i = 0; i < rows; i++) {
            w.mutate(fields(i, rows), cells(i, rows));
          }
          w.flush();
        }
        admin.flush(t1);
        admin.flush(t2);
        admin.majorCompact(t1);
        admin.majorCompact(t2);
        awaitCompacted(admin, t1, t2);
        System.out.printf("wrote both tables in %.1f s%n", (System.nanoTime() - t0) / 1e9);
      }
      try (LayoutReader r1 = LayoutReader.open(conn, t1, v1); LayoutReader r2 = LayoutReader.open(conn, t2, v2)) {
        // warm-up: every hour once through both paths (block cache, connections, JIT)
        for (int h = 0; h < 24; h++) {
          merged(r2, h);
          contiguous(conn, t1, v1, h);
        }
        double[] ra = new double[rounds];
        double[] rb = new double[rounds];
        for (int round = 0; round < rounds; round++) {
          int h = 3 + round * 5 % 20;
          double m1 = 0;
          double c = 0;
          double s = 0;
          double m2 = 0;
          Cpu cm = new Cpu();
          Cpu cs = new Cpu();
          for (int rep = 0; rep < 5; rep++) { // five reads of each kind per round, interleaved
            if ((round + rep) % 2 == 0) {
              m1 += cm.time(() -> merged(r2, h));
              c += contiguous(conn, t1, v1, h);
              s += cs.time(() -> sequential(conn, t2, r2, h));
            } else {
              s += cs.time(() -> sequential(conn, t2, r2, h));
              c += contiguous(conn, t1, v1, h);
              m1 += cm.time(() -> merged(r2, h));
            }
          }
          // cores busy while each path ran: what overlapping the bucket scans can still win on this machine
          System.out.printf("  cpu: merged client %.2f + server %.2f cores; sequential client %.2f + server %.2f cores%n",
              cm.client / m1, cm.server / m1, cs.client / s, cs.server / s);
          ra[round] = c / m1;
          rb[round] = s / m1;
          System.out.printf("round %d (hour %02d, %,d rows): (a) merged v2 %,.0f rows/s vs contiguous v1 %,.0f rows/s = "
              + "%.2fx; (b) merged vs sequential buckets %,.0f rows/s = %.2fx%n", round + 1, h, hourRows,
              5 * hourRows / m1, 5 * hourRows / c, ra[round], 5 * hourRows / s, rb[round]);
        }
        System.out.printf("(a) merged / contiguous, mean of rounds: %.2fx (want >= 0.8x)%n", mean(ra));
        System.out.printf("(b) merged / sequential buckets, mean of rounds: %.2fx (want >= 1.5x)%n", mean(rb));

        // (c) Get latency
        Random rnd = new Random(1);
        int gets = 3_000;
        long[] l1 = new long[gets];
        long[] l2 = new long[gets];
        try (Table plain = conn.getTable(t1)) {
          for (int i = 0; i < gets; i++) {
            int k = rnd.nextInt(rows);
            Map<String, Object> f = fields(k, rows);
            if (i % 2 == 0) {
              l2[i] = timeGet(r2, f);
              l1[i] = timePlainGet(plain, v1.encode(f));
            } else {
              l1[i] = timePlainGet(plain, v1.encode(f));
              l2[i] = timeGet(r2, f);
            }
          }
        }
        Arrays.sort(l1);
        Arrays.sort(l2);
        System.out.printf("(c) get p50 v2 %.2f ms vs v1 %.2f ms; p99 v2 %.2f ms vs v1 %.2f ms (%,d gets each)%n",
            l2[gets / 2] / 1e6, l1[gets / 2] / 1e6, l2[gets * 99 / 100] / 1e6, l1[gets * 99 / 100] / 1e6, gets);
      }

      // (d) writes: fresh tables per round (truncated, splits kept)
      TableName w1 = TableName.valueOf("bench_client_w1");
      TableName w2 = TableName.valueOf("bench_client_w2");
      TableName ws = TableName.valueOf("bench_client_single");
      create(admin, w1, v1, false);
      create(admin, w2, v2, true);
      create(admin, ws, v2, true);
      double[] rd = new double[rounds];
      for (int round = 0; round < rounds; round++) {
        double dual;
        double single;
        if (round % 2 == 0) {
          dual = writeDual(conn, w1, v1, w2, v2, wrows);
          single = writeSingle(conn, ws, v2, wrows);
        } else {
          single = writeSingle(conn, ws, v2, wrows);
          dual = writeDual(conn, w1, v1, w2, v2, wrows);
        }
        rd[round] = single / dual;
        System.out.printf("round %d: (d) dual writer %,.0f rows/s (each written twice) vs one BufferedMutator %,.0f "
            + "rows/s = %.2fx%n", round + 1, wrows / dual, wrows / single, rd[round]);
        for (TableName t : List.of(w1, w2, ws)) {
          admin.disableTable(t);
          admin.truncateTable(t, true);
        }
      }
      System.out.printf("(d) dual / single, mean of rounds: %.2fx (want >= 0.45x)%n", mean(rd));
      for (TableName t : List.of(w1, w2, ws)) {
        admin.disableTable(t);
        admin.deleteTable(t);
      }
    }
    System.out.println("sink " + (sink & 1));
  }

  static Map<String, Object> fields(int i, int rows) {
    return Map.of("ts", T0 + i * DAY / rows, "deviceId", devices[i % DEVICES]);
  }

  static List<Column> cells(int i, int rows) {
    long ts = T0 + i * DAY / rows;
    return List.of(Column.at(D, V, ts, Bytes.toBytes((long) i * 7)), Column.at(D, S, ts, Bytes.toBytes(i % 50 == 0 ? "alert" : "ok")));
  }

  static void create(Admin admin, TableName t, KeyLayout layout, boolean salted) throws Exception {
    if (admin.tableExists(t)) {
      admin.disableTable(t);
      admin.deleteTable(t);
    }
    var desc = TableDescriptorBuilder.newBuilder(t).setColumnFamily(ColumnFamilyDescriptorBuilder.of(D)).build();
    if (salted) {
      admin.createTable(desc, layout.splitPoints(16).toArray(new byte[0][]));
    } else {
      admin.createTable(desc);
    }
  }

  /** CPU seconds of this JVM and of the embedded HBase server process (its pid file), summed over timed reads. */
  static final class Cpu {
    double client;
    double server;

    interface Read {
      double run() throws Exception;
    }

    double time(Read r) throws Exception {
      double c0 = clientCpu();
      double s0 = serverCpu();
      double seconds = r.run();
      client += clientCpu() - c0;
      server += serverCpu() - s0;
      return seconds;
    }

    static double clientCpu() {
      return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
          .getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
    }

    /** utime + stime of the server from /proc (clock ticks of 1/100 s); 0 where there is no /proc. */
    static double serverCpu() {
      try {
        String runDir = System.getenv().getOrDefault("REKEY_RUN_DIR", ".rekey");
        String pid = java.nio.file.Files.readString(Path.of(runDir, "hbase", "hbase.pid")).trim();
        String stat = java.nio.file.Files.readString(Path.of("/proc", pid, "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
      } catch (Exception e) {
        return 0;
      }
    }
  }

  /** Seconds to read hour h through the merged reader. */
  static double merged(LayoutReader r, int h) {
    long t0 = System.nanoTime();
    long n = 0;
    try (MergedScan s = r.open(ReadQuery.window(T0 + h * HOUR, T0 + (h + 1) * HOUR))) {
      while (s.hasNext()) {
        sink += s.next().getRow().length;
        n++;
      }
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  static Scan plainScan(KeyRange r) {
    return new Scan().withStartRow(r.start()).withStopRow(r.stop()).setCaching(1000);
  }

  /** Seconds to read hour h from the legacy table with one scan. */
  static double contiguous(Connection conn, TableName t, KeyLayout v1, int h) throws Exception {
    long t0 = System.nanoTime();
    KeyRange r = KeyRangePlanner.window(v1, T0 + h * HOUR, T0 + (h + 1) * HOUR).keyRanges().get(0);
    try (Table table = conn.getTable(t); ResultScanner s = table.getScanner(plainScan(r))) {
      for (Result x : s) {
        sink += x.getRow().length;
      }
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  /** Seconds to read hour h as the same bucket ranges the reader plans, one plain scan after another, unmerged. */
  static double sequential(Connection conn, TableName t, LayoutReader r, int h) throws Exception {
    long t0 = System.nanoTime();
    ScanPlan plan = r.plan(ReadQuery.window(T0 + h * HOUR, T0 + (h + 1) * HOUR));
    try (Table table = conn.getTable(t)) {
      for (var b : plan.ranges()) {
        try (ResultScanner s = table.getScanner(plainScan(b.range()))) {
          for (Result x : s) {
            sink += x.getRow().length;
          }
        }
      }
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  static long plainCount(Connection conn, TableName t, KeyLayout v1, long from, long to) throws Exception {
    long n = 0;
    try (Table table = conn.getTable(t);
        ResultScanner s = table.getScanner(plainScan(KeyRangePlanner.window(v1, from, to).keyRanges().get(0)))) {
      for (Result ignored : s) {
        n++;
      }
    }
    return n;
  }

  static long timeGet(LayoutReader r, Map<String, Object> f) throws Exception {
    long t0 = System.nanoTime();
    sink += r.get(f).orElseThrow().size();
    return System.nanoTime() - t0;
  }

  static long timePlainGet(Table t, byte[] key) throws Exception {
    long t0 = System.nanoTime();
    Result x = t.get(new Get(key));
    if (x.isEmpty()) {
      throw new IllegalStateException("missing row");
    }
    sink += x.size();
    return System.nanoTime() - t0;
  }

  static double writeDual(Connection conn, TableName w1, KeyLayout v1, TableName w2, KeyLayout v2, int n) throws Exception {
    long t0 = System.nanoTime();
    try (DualWriter w = DualWriter.builder(conn).oldTable(w1, v1).newTable(w2, v2).writeBufferSize(8L << 20).build()) {
      for (int i = 0; i < n; i++) {
        w.mutate(fields(i, n), cells(i, n));
      }
      w.flush();
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  static double writeSingle(Connection conn, TableName t, KeyLayout v2, int n) throws Exception {
    long t0 = System.nanoTime();
    try (BufferedMutator m = conn.getBufferedMutator(new BufferedMutatorParams(t).writeBufferSize(8L << 20))) {
      for (int i = 0; i < n; i++) {
        Put p = new Put(v2.encode(fields(i, n)));
        for (Column c : cells(i, n)) {
          p.addColumn(c.family(), c.qualifier(), c.timestamp(), c.value());
        }
        m.mutate(p);
      }
      m.flush();
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  static double mean(double[] x) {
    return Arrays.stream(x).average().orElse(Double.NaN);
  }

  /** Waits (at most 120 s) until neither table is compacting: the reads must not race the compaction. */
  private static void awaitCompacted(Admin admin, TableName... tables) throws Exception {
    long deadline = System.nanoTime() + 120_000_000_000L;
    for (TableName t : tables) {
      while (admin.getCompactionState(t) != org.apache.hadoop.hbase.client.CompactionState.NONE) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(t + " still compacting after 120 s");
        }
        java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);
      }
    }
  }
}

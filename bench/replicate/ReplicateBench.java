// Benchmark (not part of rekey): rekey replication against its baselines on the embedded server, every comparison in
// the same JVM and run, alternating which side goes first per round. Run through bench/replicate/run.sh.
//   (1) BufferedMutator writes (WAL on) of the demo's telemetry rows to the old table, the peer on vs no peer;
//   (2) rows replicated per second, first write to the last row in the new table;
//   (3) catch-up: the writes stop -> every row in the new table, against a 10 s budget;
//   (4) the application's writes with replication (one BufferedMutator, peer on) vs DualWriter (both tables).
//   java <flags> -cp "$JAR:$(cat spark-jobs/target/launch.classpath):$RUN_DIR/client" ReplicateBench.java ROWS ROUNDS
import dev.rekey.client.Column;
import dev.rekey.client.DualWriter;
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.admin.replicate.ReplicationPeers;
import dev.rekey.admin.replicate.ReplicationStatus;
import dev.rekey.replication.ReplicationSettings;
import dev.rekey.rowkey.KeyLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

public class ReplicateBench {
  static final byte[] D = Bytes.toBytes("d");
  static final long BUFFER = 8L << 20;
  static final double CATCH_UP_BUDGET_S = 10;
  static final TableName OFF = TableName.valueOf("bench_repl_off");
  static final TableName ON = TableName.valueOf("bench_repl_on");
  static final TableName ON_V2 = TableName.valueOf("bench_repl_on_v2");
  static final TableName DUAL_V1 = TableName.valueOf("bench_repl_dual_v1");
  static final TableName DUAL_V2 = TableName.valueOf("bench_repl_dual_v2");

  static KeyLayout v1;
  static KeyLayout v2;
  static TelemetryGenerator gen;

  public static void main(String[] a) throws Exception {
    int rows = Integer.parseInt(a[0]);
    int rounds = Integer.parseInt(a[1]);
    v1 = KeyLayout.load(Path.of("conf/layouts/telemetry-v1.yaml"));
    v2 = KeyLayout.load(Path.of("conf/layouts/telemetry-v2.yaml"));
    gen = TelemetryGenerator.oneDay(rows, 1_000);
    Configuration conf = HBaseConfiguration.create();
    System.out.printf("cores %d; %,d telemetry rows per write, %d rounds; old tables one region (telemetry-v1), "
        + "new tables 16 salt regions (telemetry-v2)%n", Runtime.getRuntime().availableProcessors(), rows, rounds);
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      ReplicationPeers peers = new ReplicationPeers(conn);
      if (!peers.status(ON.getNameAsString()).isEmpty()) {
        peers.stop(ON.getNameAsString()); // left by an interrupted run
      }
      for (TableName t : List.of(OFF, ON, DUAL_V1)) {
        create(admin, t, null);
      }
      for (TableName t : List.of(ON_V2, DUAL_V2)) {
        create(admin, t, v2.splitPoints(16));
      }
      ReplicationSettings settings = new ReplicationSettings(ON.getNameAsString(),
          Files.readString(Path.of("conf/layouts/telemetry-v1.yaml")),
          List.of(new ReplicationSettings.Target(ON_V2.getNameAsString(),
              Files.readString(Path.of("conf/layouts/telemetry-v2.yaml")))),
          "bench_repl_quarantine");
      double[] r1 = new double[rounds];
      double[] r4 = new double[rounds];
      // round 0 warms the JIT, the connections and the server up: recorded as a warm-up, left out of the figures
      for (int round = 0; round <= rounds; round++) {
        double off = 0;
        double dual = 0;
        Replicated on = null;
        // three writes per round, the order rotated: none of them always runs on a fresher server
        List<String> order = new ArrayList<>(List.of("off", "on", "dual"));
        java.util.Collections.rotate(order, round);
        for (String w : order) {
          switch (w) {
            case "off" -> off = writeOld(conn, OFF, rows);
            case "dual" -> dual = writeDual(conn, rows);
            default -> on = replicated(conn, admin, peers, settings, rows);
          }
        }
        if (round > 0) {
          r1[round - 1] = off / on.writeSeconds;
          r4[round - 1] = dual / on.writeSeconds;
        }
        System.out.printf("round %d%s: (1) writes peer on %,.0f rows/s vs no peer %,.0f rows/s = %.2fx; (2) replicated "
            + "%,.0f rows/s (%.1f s from the first write to the last row in %s); (3) caught up %.1f s after the "
            + "writes stopped (HBase's reported lag at the end of the writes: %,d ms); (4) dual writer %,.0f rows/s "
            + "(each written twice) vs replication %,.0f rows/s = %.2fx%n",
            round, round == 0 ? " (warm-up)" : "", rows / on.writeSeconds, rows / off, off / on.writeSeconds, rows / on.deliverSeconds,
            on.deliverSeconds, ON_V2, on.catchUpSeconds, on.reportedLagMs, rows / dual, rows / on.writeSeconds,
            dual / on.writeSeconds);
        record(round, "BufferedMutator writes to the old table with the rekeying peer on",
            "the same writes with no peer", rows, on.writeSeconds, off, off / on.writeSeconds, "0.7");
        record(round, "rows replicated into the new table (first write to the last row there)",
            "the same rows written to the old table (peer on)", rows, on.deliverSeconds, on.writeSeconds,
            on.writeSeconds / on.deliverSeconds, "");
        record(round, "catch-up: writes stop -> every row in the new table",
            "a 10 s budget (lag back under 5 s within 10 s)", rows, on.catchUpSeconds, CATCH_UP_BUDGET_S,
            CATCH_UP_BUDGET_S / Math.max(on.catchUpSeconds, 0.001), "1");
        record(round, "the application's writes with replication (one BufferedMutator, peer on)",
            "DualWriter writing both tables (no peer)", rows, on.writeSeconds, dual, dual / on.writeSeconds, "");
        truncate(admin, OFF, DUAL_V1, DUAL_V2);
      }
      System.out.printf("(1) peer on / no peer, median of rounds: %.2fx (want >= 0.7x)%n", median(r1));
      System.out.printf("(4) dual writer / replication, median of rounds: %.2fx%n", median(r4));
      for (TableName t : List.of(OFF, ON, ON_V2, DUAL_V1, DUAL_V2)) {
        admin.disableTable(t);
        admin.deleteTable(t);
      }
    }
  }

  record Replicated(double writeSeconds, double deliverSeconds, double catchUpSeconds, long reportedLagMs) {}

  /**
   * Starts the peer (not timed), writes the rows to the old table (timed: the application's side), then waits until
   * the last row is in the new table: one WAL, shipped in order, so every row before it is there too.
   */
  static Replicated replicated(Connection conn, Admin admin, ReplicationPeers peers, ReplicationSettings settings,
      int rows) throws Exception {
    // a new peer starts at the beginning of the server's current WAL: roll it, so the peer does not ship again the
    // rows an earlier round wrote to this table
    for (var server : admin.getRegionServers()) {
      admin.rollWALWriter(server);
    }
    peers.start(settings);
    TelemetryReading last = gen.reading(rows - 1);
    byte[] lastKey = v2.encode(Map.of("ts", last.ts(), "deviceId", last.deviceId()));
    long t0 = System.nanoTime();
    double write = writeOld(conn, ON, rows);
    long stopped = System.nanoTime();
    long lag = status(peers).maxLagMs();
    try (Table t = conn.getTable(ON_V2)) {
      dev.rekey.common.Poll.until(
          () -> t.exists(new Get(lastKey)),
          java.time.Duration.ofMinutes(10),
          java.time.Duration.ofMillis(20),
          () -> new IllegalStateException("the last row did not arrive within 10 min"));
    }
    long done = System.nanoTime();
    peers.stop(ON.getNameAsString());
    long count = countRows(conn, ON_V2);
    if (count != rows) {
      throw new IllegalStateException(ON_V2 + " has " + count + " rows, not " + rows);
    }
    truncate(admin, ON, ON_V2);
    return new Replicated(write, (done - t0) / 1e9, (done - stopped) / 1e9, lag);
  }

  static ReplicationStatus status(ReplicationPeers peers) throws Exception {
    return peers.status(ON.getNameAsString()).get(0);
  }

  static double writeOld(Connection conn, TableName t, int rows) throws Exception {
    long t0 = System.nanoTime();
    try (BufferedMutator m = conn.getBufferedMutator(new BufferedMutatorParams(t).writeBufferSize(BUFFER))) {
      for (int i = 0; i < rows; i++) {
        m.mutate(LegacyTelemetryTable.put(gen.reading(i)));
      }
      m.flush();
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  static double writeDual(Connection conn, int rows) throws Exception {
    long t0 = System.nanoTime();
    try (DualWriter w = DualWriter.builder(conn).oldTable(DUAL_V1, v1).newTable(DUAL_V2, v2).writeBufferSize(BUFFER)
        .build()) {
      for (int i = 0; i < rows; i++) {
        TelemetryReading r = gen.reading(i);
        w.mutate(Map.of("ts", r.ts(), "deviceId", r.deviceId()),
            List.of(Column.at(D, LegacyTelemetryTable.VALUE, r.ts(), Bytes.toBytes(r.value())),
                Column.at(D, LegacyTelemetryTable.STATUS, r.ts(), Bytes.toBytes(r.status()))));
      }
      w.flush();
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  static long countRows(Connection conn, TableName t) throws Exception {
    long n = 0;
    try (Table table = conn.getTable(t);
        var s = table.getScanner(new org.apache.hadoop.hbase.client.Scan().setCaching(5000)
            .setFilter(new org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter()))) {
      for (var ignored : s) {
        n++;
      }
    }
    return n;
  }

  static void create(Admin admin, TableName t, List<byte[]> splits) throws Exception {
    if (admin.tableExists(t)) {
      admin.disableTable(t);
      admin.deleteTable(t);
    }
    var desc = TableDescriptorBuilder.newBuilder(t).setColumnFamily(ColumnFamilyDescriptorBuilder.of(D)).build();
    if (splits == null) {
      admin.createTable(desc);
    } else {
      admin.createTable(desc, splits.toArray(new byte[0][]));
    }
  }

  static void truncate(Admin admin, TableName... tables) throws Exception {
    for (TableName t : tables) {
      admin.disableTable(t);
      admin.truncateTable(t, true);
    }
  }

  static void record(int round, String variant, String baseline, int rows, double rekeyS, double baseS, double ratio,
      String target) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("python3", "bench/record.py", "replicate", Integer.toString(round),
        variant, baseline, Integer.toString(rows), Double.toString(rekeyS), Double.toString(baseS),
        Double.toString(ratio), target));
    if (round == 0) {
      cmd.add("warm-up");
    }
    Process p = new ProcessBuilder(cmd).inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("bench/record.py failed");
    }
  }

  static double median(double[] x) {
    double[] s = x.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}

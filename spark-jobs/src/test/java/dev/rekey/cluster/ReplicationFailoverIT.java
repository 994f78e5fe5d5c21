package dev.rekey.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.admin.replicate.ReplicationPeers;
import dev.rekey.common.Poll;
import dev.rekey.demo.RegionSpread;
import dev.rekey.embedded.ClusterStack;
import dev.rekey.replication.ReplicationSettings;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.TableContents;
import dev.rekey.testing.TelemetryReplication;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The rekeying replication endpoint with a RegionServer SIGKILLed while it replicates, on the
 * pseudo-distributed cluster (two RegionServers on HDFS, the endpoint's jar on their classpath):
 * the dead server's replication queue (its WAL, partly shipped) is claimed by the other server,
 * which ships the rest — and may ship again what the dead one had shipped without recording it. The
 * old table's writer never stops; once it has, both tables are equal by natural key, every cell and
 * version with its timestamp. Tier {@code cluster} (bin/test -Dgroups=cluster).
 */
@Tag("cluster")
class ReplicationFailoverIT {
  private static final Path DIR = ClusterTier.DIR;
  private static final TableName OLD = TableName.valueOf("repl_failover_v1");
  private static final TableName NEW = TableName.valueOf("repl_failover_v2");
  private static final TableName QUARANTINE = TableName.valueOf("repl_failover_q");
  private static final byte[] D = Bytes.toBytes("d");
  private static final byte[] V = Bytes.toBytes("v");
  private static final long T0 = 1_795_910_400_000L;
  private static final long DAY = 24L * 3600 * 1000;
  private static final int ROWS = 6_000;
  private static final int KILL_AT = 2_000;

  private static ClusterStack cluster;
  private static Connection conn;
  private static KeyLayout v1;
  private static KeyLayout v2;

  @BeforeAll
  static void start() throws Exception {
    cluster = ClusterTier.start();
    conn = ClusterTier.connect(cluster);
    v1 = Layouts.shipped("telemetry-v1");
    v2 = Layouts.shipped("telemetry-v2");
    try (Admin admin = conn.getAdmin()) {
      ClusterTier.dropIfPresent(admin, List.of(OLD, NEW));
      // the old table in two regions, one per RegionServer: both servers' WALs carry its edits
      create(admin, OLD, List.of(Bytes.toBytes(T0 + DAY / 2)));
      create(admin, NEW, v2.splitPoints(16));
      RegionSpread.interleave(admin, OLD);
      RegionSpread.interleave(admin, NEW);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    ClusterTier.stop(conn);
  }

  private static void create(Admin admin, TableName name, List<byte[]> splits) throws IOException {
    admin.createTable(
        TableDescriptorBuilder.newBuilder(name)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(D).setMaxVersions(5).build())
            .build(),
        splits.toArray(new byte[0][]));
  }

  /** The i-th row: spread over the day, so over both of the old table's regions. */
  private static byte[] row(long i) {
    long ts = T0 + (i * 7_919_000L) % DAY;
    byte[] device = HexFormat.of().parseHex(String.format("%032x", 0xfa11L * 1_000_000 + i));
    return v1.encode(Map.of("ts", ts, "deviceId", device));
  }

  @Test
  void aRegionServerKilledWhileReplicatingLosesNothing() throws Exception {
    ReplicationSettings settings = TelemetryReplication.settings(OLD, NEW, QUARANTINE, Map.of());
    ReplicationPeers peers = new ReplicationPeers(conn);
    if (!peers.status(OLD.getNameAsString()).isEmpty()) {
      peers.stop(OLD.getNameAsString()); // left by an earlier, interrupted run
    }
    peers.start(settings);
    AtomicLong written = new AtomicLong();
    AtomicReference<Exception> failure = new AtomicReference<>();
    long killed = -1;
    try {
      // the application's writer: batches of 50 rows (two versions each, and every 10th batch a
      // delete), through HBase's client retries while the dead server's regions move
      Thread writer =
          new Thread(
              () -> {
                try (Table t = conn.getTable(OLD)) {
                  for (long i = 0; i < ROWS; i += 50) {
                    List<Put> puts = new ArrayList<>();
                    for (long j = i; j < i + 50; j++) {
                      puts.add(
                          new Put(row(j))
                              .addColumn(D, V, T0 + 1, Bytes.toBytes("a" + j))
                              .addColumn(D, V, T0 + 2, Bytes.toBytes("b" + j)));
                    }
                    t.put(puts);
                    if ((i / 50) % 10 == 9) {
                      t.delete(new Delete(row(i)).addColumn(D, V, T0 + 2));
                    }
                    written.set(i + 50);
                  }
                } catch (Exception e) {
                  failure.set(e);
                }
              },
              "old-table-writer");
      writer.start();
      Poll.until(
          () -> written.get() >= KILL_AT || !writer.isAlive(),
          Duration.ofMinutes(3),
          Duration.ofMillis(20),
          () -> new IllegalStateException("the writer did not reach " + KILL_AT + " rows"));
      killed = cluster.kill("regionserver-1"); // its WAL holds edits not yet shipped
      writer.join(Duration.ofMinutes(6).toMillis());
      assertTrue(!writer.isAlive(), "the writer finished");
      if (failure.get() != null) {
        throw failure.get();
      }
      assertTrue(killed > 0, "a RegionServer was killed while the peer replicated");

      Map<String, List<String>> old = TableContents.byNaturalKey(conn, OLD, v1);
      assertEquals(ROWS, old.size());
      Poll.until(
          () -> old.equals(TableContents.byNaturalKey(conn, NEW, v2)),
          Duration.ofMinutes(5),
          Duration.ofSeconds(2),
          () ->
              new IllegalStateException(
                  "the new table did not reach the old table's content after the kill"));
      assertEquals(0, peers.status(OLD.getNameAsString()).get(0).quarantined());
    } finally {
      peers.stop(OLD.getNameAsString());
      cluster.restart("regionserver-1", Duration.ofSeconds(180));
    }
  }
}

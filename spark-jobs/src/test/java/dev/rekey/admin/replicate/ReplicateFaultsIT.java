package dev.rekey.admin.replicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.replication.ReplicationSettings;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.OtherCluster;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.TableContents;
import dev.rekey.testing.TelemetryReplication;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.replication.ReplicationPeerConfig;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The rekeying endpoint under faults on the embedded server: a disabled target table, a target
 * cluster that stops answering, every edit delivered twice, a burst larger than one shipped batch.
 * Each test writes the old table only and ends with both tables equal by natural key, every cell
 * and version with its timestamp, read with a plain HBase client.
 *
 * <p>When is everything delivered? Each test writes an undecodable key last: the peer quarantines
 * it and counts it, and one WAL is shipped in order, so once the counter is 1 every edit before it
 * has been applied.
 */
@Tag("e2e")
class ReplicateFaultsIT {
  static final byte[] D = ReplicateIT.D;
  static final byte[] E = ReplicateIT.E;
  static final byte[] Q = Bytes.toBytes("v");
  static final byte[] W = Bytes.toBytes("w");
  static final long T0 = ReplicateIT.T0;
  static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  static final KeyLayout V2 = Layouts.shipped("telemetry-v2");
  static final byte[] UNDECODABLE = Bytes.toBytes("not-a-telemetry-v1-key");
  static final Duration DELIVERY = Duration.ofSeconds(180);
  static final Duration FROZEN = Duration.ofSeconds(4);

  /** A pair of tables on the shared server and the peer between them. */
  record Setup(
      TableName source, TableName target, ReplicationSettings settings, ReplicationPeers peers) {}

  static Setup setUp(String name, Connection targetConn, Map<String, String> targetCluster)
      throws IOException {
    TableName source = SharedHBase.uniqueTable(name + "_src");
    TableName target = SharedHBase.uniqueTable(name + "_dst");
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      ReplicateIT.create(admin, source, List.of());
    }
    try (Admin admin = targetConn.getAdmin()) {
      ReplicateIT.create(admin, target, V2.splitPoints(16));
    }
    ReplicationSettings settings =
        TelemetryReplication.settings(
            source, target, SharedHBase.uniqueTable(name + "_q"), targetCluster);
    ReplicationPeers peers = new ReplicationPeers(SharedHBase.connection(), targetConn);
    peers.start(settings);
    return new Setup(source, target, settings, peers);
  }

  static byte[] row(int i) {
    return V1.encode(Map.of("ts", T0 + i * 60_000L, "deviceId", ReplicateIT.device(i)));
  }

  /** Rows {@code from..to-1}: three versions of d:v, d:w and e:v, each with its timestamp. */
  static void writeVersions(Table t, int from, int to) throws IOException {
    for (int i = from; i < to; i++) {
      Put p = new Put(row(i));
      for (int v = 0; v < 3; v++) {
        p.addColumn(D, Q, T0 + v, Bytes.toBytes("d" + i + "." + v));
        p.addColumn(D, W, T0 + v, Bytes.toBytes("w" + i + "." + v));
        p.addColumn(E, Q, T0 + v, Bytes.toBytes("e" + i + "." + v));
      }
      t.put(p);
    }
  }

  /** Every kind of Delete, on rows {@code base..base+7}, and an update of row {@code base+8}. */
  static void deleteEveryKind(Table t, int base) throws IOException {
    t.delete(new Delete(row(base)).addColumn(D, Q, T0 + 1)); // one version
    t.delete(new Delete(row(base + 1)).addColumns(D, Q, T0 + 1)); // a column up to a timestamp
    t.delete(new Delete(row(base + 2)).addColumns(D, W)); // every version of a column
    t.delete(new Delete(row(base + 3)).addFamily(D)); // a family
    t.delete(new Delete(row(base + 4)).addFamily(E, T0 + 1)); // a family up to a timestamp
    t.delete(new Delete(row(base + 5)).addFamilyVersion(D, T0 + 2)); // one version of a family
    t.delete(new Delete(row(base + 6))); // a row
    t.delete(new Delete(row(base + 7)).addColumn(E, Q)); // the latest version of a column
    t.put(new Put(row(base + 8)).addColumn(D, Q, T0 + 50, Bytes.toBytes("newer")));
  }

  /** The last write of a test: an undecodable key, counted once every edit before it is applied. */
  static void writeLast(Table t) throws IOException {
    t.put(new Put(UNDECODABLE).addColumn(D, Q, T0, Bytes.toBytes("x")));
  }

  static long counter(Connection targetConn, ReplicationSettings s, String peerId)
      throws IOException {
    return ReplicationPeers.quarantined(targetConn, s, peerId);
  }

  static void awaitDelivered(Connection targetConn, Setup s, String peerId) throws Exception {
    ReplicateIT.await(
        DELIVERY,
        "delivery of every edit by peer " + peerId + " (its count of the undecodable last row)",
        () -> {
          try {
            return counter(targetConn, s.settings(), peerId) >= 1;
          } catch (IOException e) {
            return false; // the target cluster may still be coming back
          }
        });
  }

  /** The check every test ends with: natural key, every cell and version, timestamps included. */
  static Map<String, List<String>> assertTablesEqual(Connection targetConn, Setup s)
      throws IOException {
    Scan decodable = new Scan().withStopRow(Bytes.toBytes("n")); // the undecodable key sorts last
    Map<String, List<String>> old =
        TableContents.byNaturalKey(SharedHBase.connection(), s.source(), V1, decodable);
    assertEquals(old, TableContents.byNaturalKey(targetConn, s.target(), V2));
    return old;
  }

  /**
   * The target table disabled while the old table is written: the endpoint's batches fail and the
   * shipper retries them (edits read, none shipped, the status shows the lag); once enabled, every
   * edit arrives with its timestamp, the deletes too.
   */
  @Test
  void editsWaitForADisabledTargetAndArriveWhenItIsEnabled() throws Exception {
    Connection conn = SharedHBase.connection();
    Setup s = setUp("repl_disabled", conn, Map.of());
    try {
      try (Admin admin = conn.getAdmin()) {
        admin.disableTable(s.target());
        try (Table t = conn.getTable(s.source())) {
          writeVersions(t, 0, 20);
          deleteEveryKind(t, 0);
          writeLast(t);
        }
        // the endpoint's own line for a batch it could not apply (HBase retries it)
        String failed = "rekey replication peer " + s.settings().peerId() + ": cannot apply";
        ReplicateIT.await(
            DELIVERY,
            "a failed batch (\"" + failed + "\" in the server log)",
            () -> serverLog().contains(failed));
        assertEquals(0, counter(conn, s.settings(), s.settings().peerId()), "nothing got through");
        assertTrue(admin.isTableDisabled(s.target()));
        admin.enableTable(s.target());
      }
      awaitDelivered(conn, s, s.settings().peerId());
      assertEquals(19, assertTablesEqual(conn, s).size(), "20 rows, one deleted");
    } finally {
      s.peers().stop(s.source().getNameAsString());
    }
  }

  /**
   * The target cluster stops answering (its server process SIGSTOPped for a few seconds:
   * connections hang, nothing refuses) while the old table is written, then answers again: the
   * endpoint's writes wait in HBase's client and the shipper's retries, then every edit arrives,
   * once.
   */
  @Test
  void editsWaitForAnUnreachableTargetClusterAndArriveWhenItAnswers() throws Exception {
    Connection other = OtherCluster.connection();
    Map<String, String> otherCluster = ReplicationSettings.clusterOf(OtherCluster.conf());
    Setup s = setUp("repl_unreachable", other, otherCluster);
    long pid =
        OtherCluster.server()
            .runningProcess()
            .orElseThrow(() -> new IllegalStateException("the other cluster is not running"))
            .pid();
    try {
      try (Table t = SharedHBase.connection().getTable(s.source())) {
        writeVersions(t, 0, 10); // before: delivered while the target answers
        signal("STOP", pid);
        try {
          writeVersions(t, 10, 30);
          deleteEveryKind(t, 10);
          writeLast(t);
          // the fault's length: long enough for the peer to read the edits and try to ship them
          // (it polls the WAL every second), well within the target's own ZooKeeper sessions (a
          // standalone server's are 10 s: longer, and the frozen server aborts when it wakes)
          Thread.sleep(FROZEN.toMillis());
        } finally {
          signal("CONT", pid);
        }
      }
      assertTrue(OtherCluster.server().runningProcess().isPresent(), "the target cluster is back");
      awaitDelivered(other, s, s.settings().peerId());
      assertEquals(29, assertTablesEqual(other, s).size(), "30 rows, one deleted");
    } finally {
      s.peers().stop(s.source().getNameAsString());
    }
  }

  /**
   * Every edit delivered twice, in two independent orders: a second peer with the same endpoint
   * configuration (as after a failover, when a claimed queue ships again what the dead server had
   * shipped but not recorded) applies every Put and every kind of Delete a second time. Same cells,
   * same timestamps: the target is the same as with one delivery.
   */
  @Test
  void editsDeliveredTwiceChangeNothing() throws Exception {
    Connection conn = SharedHBase.connection();
    Setup s = setUp("repl_twice", conn, Map.of());
    String second = s.settings().peerId() + "_again";
    try (Admin admin = conn.getAdmin()) {
      ReplicationPeerConfig first = admin.getReplicationPeerConfig(s.settings().peerId());
      admin.addReplicationPeer(second, first);
      try {
        try (Table t = conn.getTable(s.source())) {
          writeVersions(t, 0, 20);
          deleteEveryKind(t, 0);
          // after the deletes, the same cells again: a delete marker still masks them on the
          // target whichever peer delivers first
          writeVersions(t, 0, 3);
          deleteEveryKind(t, 10);
          writeLast(t);
        }
        awaitDelivered(conn, s, s.settings().peerId());
        awaitDelivered(conn, s, second);
        assertEquals(1, counter(conn, s.settings(), second));
        Map<String, List<String>> old = assertTablesEqual(conn, s);
        assertEquals(18, old.size(), "20 rows, two deleted");
        assertTrue(
            old.values().stream()
                .flatMap(List::stream)
                .anyMatch(c -> c.startsWith("d:v@" + (T0 + 50))));
      } finally {
        admin.removeReplicationPeer(second);
      }
    } finally {
      s.peers().stop(s.source().getNameAsString());
    }
  }

  /**
   * A burst larger than one shipped batch: 30,000 edits written at once through a BufferedMutator,
   * more than the WAL reader hands the endpoint per call (replication.source.nb.capacity, 25,000
   * entries), so the endpoint applies it in several batches; every row arrives. (A burst over the
   * reader's 64 MiB size capacity instead ran the 1 GB embedded server out of heap on a loaded
   * 2-core machine: the count limit shows the same without that.)
   */
  @Test
  void aBurstLargerThanTheEndpointsBatchesArrivesWhole() throws Exception {
    Connection conn = SharedHBase.connection();
    Setup s = setUp("repl_burst", conn, Map.of());
    int rows = 30_000;
    try {
      Random random = new Random(45);
      try (BufferedMutator m = conn.getBufferedMutator(s.source())) {
        for (int i = 0; i < rows; i++) {
          byte[] value = new byte[64];
          random.nextBytes(value);
          m.mutate(new Put(row(i)).addColumn(D, Q, T0 + i, value));
        }
      }
      try (Table t = conn.getTable(s.source())) {
        writeLast(t);
      }
      awaitDelivered(conn, s, s.settings().peerId());
      assertEquals(rows, assertTablesEqual(conn, s).size());
    } finally {
      s.peers().stop(s.source().getNameAsString());
    }
  }

  private static String serverLog() {
    try {
      return Files.readString(SharedHBase.server().logFile());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void signal(String sig, long pid) throws Exception {
    Process p = new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).inheritIO().start();
    assertEquals(0, p.waitFor(), "kill -" + sig + " " + pid);
  }
}

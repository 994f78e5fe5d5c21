package dev.rekey.admin.replicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.RekeyException;
import dev.rekey.replication.Quarantine;
import dev.rekey.replication.ReplicationSettings;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.TableContents;
import dev.rekey.testing.TelemetryReplication;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The rekeying replication endpoint on the embedded server: the old table's writers write only the
 * old table, and every Put and every kind of Delete reaches the new table under the new key with
 * its timestamp; an undecodable key lands in the quarantine with the counter.
 */
@Tag("e2e")
public class ReplicateIT {
  static final byte[] D = Bytes.toBytes("d");
  static final byte[] E = Bytes.toBytes("e");
  static final long T0 = 1_795_910_400_000L;

  static byte[] device(int i) {
    return HexFormat.of().parseHex(String.format("%032x", 0xabc000L + i));
  }

  static void create(Admin admin, TableName name, List<byte[]> splits) throws IOException {
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(name);
    for (byte[] f : List.of(D, E)) {
      b.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(f).setMaxVersions(10).build());
    }
    admin.createTable(b.build(), splits.toArray(new byte[0][]));
  }

  @Test
  void everyPutAndDeleteOfTheOldTableReachesTheNewKeyWithItsTimestamps() throws Exception {
    everyPutAndDeleteReachesTheNewKey(SharedHBase.connection());
  }

  /**
   * The scenario on the server {@code conn} reaches (the compatibility tier runs it in a
   * RegionServer of another HBase version).
   */
  public static void everyPutAndDeleteReachesTheNewKey(Connection conn) throws Exception {
    KeyLayout v1 = Layouts.shipped("telemetry-v1");
    KeyLayout v2 = Layouts.shipped("telemetry-v2");
    TableName source = SharedHBase.uniqueTable("repl_src");
    TableName target = SharedHBase.uniqueTable("repl_dst");
    TableName quarantine = SharedHBase.uniqueTable("repl_quarantine");
    try (Admin admin = conn.getAdmin()) {
      create(admin, source, List.of());
      create(admin, target, v2.splitPoints(16));
    }
    ReplicationSettings settings =
        TelemetryReplication.settings(source, target, quarantine, Map.of());
    ReplicationPeers peers = new ReplicationPeers(conn);
    String started = peers.start(settings);
    assertTrue(started.contains("scope set on families d, e"), started);
    try {
      RekeyException again = assertThrows(RekeyException.class, () -> peers.start(settings));
      assertTrue(again.getMessage().contains("already exists"), again.getMessage());

      byte[] q = Bytes.toBytes("v");
      byte[] w = Bytes.toBytes("w");
      List<byte[]> rows = new ArrayList<>();
      try (Table t = conn.getTable(source)) {
        for (int i = 0; i < 12; i++) {
          byte[] row = v1.encode(Map.of("ts", T0 + i * 60_000L, "deviceId", device(i)));
          rows.add(row);
          Put p = new Put(row);
          for (int v = 0; v < 3; v++) { // three versions of d:v and e:w, each with its timestamp
            p.addColumn(D, q, T0 + v, Bytes.toBytes("d" + i + "." + v));
            p.addColumn(D, w, T0 + v, Bytes.toBytes("w" + i + "." + v));
            p.addColumn(E, q, T0 + v, Bytes.toBytes("e" + i + "." + v));
          }
          t.put(p);
        }
        t.put(new Put(rows.get(0)).addColumn(D, q, T0 + 50, Bytes.toBytes("newer"))); // an update
        t.delete(new Delete(rows.get(1)).addColumn(D, q, T0 + 1)); // one version
        t.delete(new Delete(rows.get(2)).addColumns(D, q, T0 + 1)); // versions <= T0+1 of a column
        t.delete(new Delete(rows.get(3)).addColumns(D, w)); // every version of a column
        t.delete(new Delete(rows.get(4)).addFamily(D)); // a family
        t.delete(new Delete(rows.get(5)).addFamily(E, T0 + 1)); // family versions <= T0+1
        t.delete(new Delete(rows.get(6)).addFamilyVersion(D, T0 + 2)); // one version of a family
        t.delete(new Delete(rows.get(7))); // a row
        t.delete(new Delete(rows.get(8)).addColumn(E, q)); // the latest version of a column
        t.put(
            new Put(Bytes.toBytes("not-a-telemetry-v1-key"))
                .addColumn(D, q, T0, Bytes.toBytes("x")));
      }

      // the undecodable row is written last: once it is counted, the queue has shipped every edit
      // before it
      await(
          Duration.ofSeconds(120),
          "the quarantine counter",
          () -> status(peers, source).quarantined() == 1);
      await(
          Duration.ofSeconds(30),
          "lag 0 with edits shipped",
          () -> {
            ReplicationStatus s = status(peers, source);
            return s.editsShipped() > 0 && s.maxLagMs() == 0;
          });
      assertTrue(
          status(peers, source)
              .console()
              .contains("quarantine " + quarantine.getNameAsString() + ": 1 edit(s)"));

      Scan decodable = new Scan().withStopRow(Bytes.toBytes("n")); // the bad key sorts last
      Map<String, List<String>> old = TableContents.byNaturalKey(conn, source, v1, decodable);
      Map<String, List<String>> replicated = TableContents.byNaturalKey(conn, target, v2);
      assertEquals(11, old.size(), "the deleted row is gone");
      assertEquals(old, replicated);
      assertTrue(
          old.values().stream()
              .flatMap(List::stream)
              .anyMatch(c -> c.startsWith("d:v@" + (T0 + 50))));

      try (Table t = conn.getTable(quarantine);
          ResultScanner sc =
              t.getScanner(
                  new Scan().setRowPrefixFilter(Quarantine.rowPrefix(settings.peerId())))) {
        List<Result> quarantined = new ArrayList<>();
        sc.forEach(quarantined::add);
        assertEquals(1, quarantined.size());
        String reason =
            Bytes.toString(quarantined.get(0).getValue(Quarantine.FAMILY, Bytes.toBytes("reason")));
        assertTrue(reason.contains("telemetry-v1"), reason);
        assertEquals(
            "x",
            Bytes.toString(
                quarantined.get(0).getValue(Quarantine.FAMILY, Bytes.toBytes("cell:Put:d:v"))));
      }
    } finally {
      String stopped = peers.stop(source.getNameAsString());
      assertTrue(stopped.contains("scope put back to 0 on families d,e"), stopped);
    }
    assertTrue(peers.status(source.getNameAsString()).isEmpty());
    try (Admin admin = conn.getAdmin()) {
      assertEquals(0, admin.getDescriptor(source).getColumnFamily(D).getScope());
    }
  }

  static ReplicationStatus status(ReplicationPeers peers, TableName source) {
    try {
      return peers.status(source.getNameAsString()).get(0);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static void await(Duration within, String what, BooleanSupplier done)
      throws InterruptedException {
    try {
      dev.rekey.common.Poll.until(
          done::getAsBoolean,
          within,
          Duration.ofMillis(500),
          () -> new IllegalStateException("no " + what + " within " + within.toSeconds() + " s"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}

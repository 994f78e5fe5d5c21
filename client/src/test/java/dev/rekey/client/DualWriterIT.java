package dev.rekey.client;

import static dev.rekey.client.Telemetry.D;
import static dev.rekey.client.Telemetry.T0;
import static dev.rekey.client.Telemetry.V;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The dual writer against the real server: same cells and timestamps on both keys, failures named,
 * the race.
 */
@Tag("e2e")
class DualWriterIT {
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");
  private static Connection conn;

  @BeforeAll
  static void connect() {
    conn = ClientHBase.connection();
  }

  @Test
  void writesBothKeysWithOneTimestampAndDeletesBoth() throws Exception {
    Telemetry.Tables tables = Telemetry.create(conn, "dw", V2);
    TableName v1 = tables.v1();
    TableName v2 = tables.v2();
    long stamp = 1_700_000_000_123L;
    List<Telemetry.Reading> rows = Telemetry.day(200, 10, 11);
    try (DualWriter w =
            DualWriter.builder(conn).oldTable(v1, V1).newTable(v2, V2).clock(() -> stamp).build();
        LayoutReader r1 = LayoutReader.open(conn, v1, V1);
        LayoutReader r2 = LayoutReader.open(conn, v2, V2)) {
      for (Telemetry.Reading r : rows) {
        w.mutate(r.fields(), List.of(Column.of(D, V, Bytes.toBytes(r.value()))));
      }
      w.flush();
      for (Telemetry.Reading r : rows) {
        Cell a = r1.get(r.fields()).orElseThrow().rawCells()[0];
        Cell b = r2.get(r.fields()).orElseThrow().rawCells()[0];
        assertEquals(stamp, a.getTimestamp());
        assertEquals(stamp, b.getTimestamp());
        assertArrayEquals(
            Bytes.toBytes(r.value()),
            Bytes.copy(b.getValueArray(), b.getValueOffset(), b.getValueLength()));
      }
      Telemetry.Reading gone = rows.get(17);
      w.delete(gone.fields(), stamp + 1);
      w.flush();
      assertTrue(r1.get(gone.fields()).isEmpty());
      assertTrue(r2.get(gone.fields()).isEmpty());
      assertEquals(rows.size() - 1, r2.scan(ReadQuery.window(T0, T0 + Telemetry.DAY)).size());
    }
  }

  @Test
  void aFailingTableRaisesOnFlushNamingEveryRow() throws Exception {
    TableName v1 = ClientHBase.uniqueTable("dwfail_v1");
    TableName v2 = ClientHBase.uniqueTable("dwfail_v2");
    try (Admin admin = conn.getAdmin()) {
      Telemetry.createV1(admin, v1);
      Telemetry.createWithoutFamilyD(admin, v2); // the server rejects every put to it
    }
    List<Telemetry.Reading> rows = Telemetry.day(3, 3, 5);
    DualWriter w = DualWriter.builder(conn).oldTable(v1, V1).newTable(v2, V2).build();
    DualWriteException e = failedFlush(w, rows, v2);
    for (Telemetry.Reading r : rows) {
      assertTrue(
          e.getMessage().contains("ts=" + r.ts() + ", deviceId=" + Hex.of(r.deviceId())),
          e.getMessage());
      assertTrue(e.getMessage().contains(Hex.of(V2.encode(r.fields()))), e.getMessage());
    }
    assertTrue(e.failures().stream().allMatch(f -> f.table().equals(v2.getNameAsString())));
    w.close(); // the failures were raised once; nothing new since
  }

  @Test
  void writesEveryNewTableAndNamesTheOneThatFails() throws Exception {
    KeyLayout byDevice = Layouts.shipped("telemetry-by-device");
    Telemetry.Tables tables = Telemetry.create(conn, "dw3", V2);
    TableName v1 = tables.v1();
    TableName v2 = tables.v2();
    TableName dev = ClientHBase.uniqueTable("dw3_dev");
    TableName bad = ClientHBase.uniqueTable("dw3_bad");
    try (Admin admin = conn.getAdmin()) {
      Telemetry.createV1(admin, dev);
      Telemetry.createWithoutFamilyD(admin, bad); // the fourth table fails
    }
    long stamp = 1_700_000_000_456L;
    List<Telemetry.Reading> rows = Telemetry.day(50, 5, 7);
    try (DualWriter w =
            DualWriter.builder(conn)
                .oldTable(v1, V1)
                .newTable(v2, V2)
                .newTable(dev, byDevice)
                .clock(() -> stamp)
                .build();
        LayoutReader r2 = LayoutReader.open(conn, v2, V2);
        LayoutReader r3 = LayoutReader.open(conn, dev, byDevice)) {
      assertEquals(List.of(v2, dev), w.newTables());
      for (Telemetry.Reading r : rows) {
        w.mutate(r.fields(), List.of(Column.of(D, V, Bytes.toBytes(r.value()))));
      }
      w.flush();
      for (Telemetry.Reading r : rows) {
        assertEquals(stamp, r2.get(r.fields()).orElseThrow().rawCells()[0].getTimestamp());
        assertEquals(stamp, r3.get(r.fields()).orElseThrow().rawCells()[0].getTimestamp());
      }
      // one device's history is one range on the entity-first table, newest first
      Telemetry.Reading one = rows.get(0);
      List<Result> history = r3.scan(ReadQuery.builder().where("deviceId", one.deviceId()).build());
      assertEquals(
          rows.stream().filter(r -> Arrays.equals(r.deviceId(), one.deviceId())).count(),
          history.size());
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> DualWriter.builder(conn).oldTable(v1, V1).newTable(v2, V2).newTable(v2, V2));
    DualWriter w =
        DualWriter.builder(conn).oldTable(v1, V1).newTable(v2, V2).newTable(bad, byDevice).build();
    DualWriteException e = failedFlush(w, rows.subList(0, 2), bad);
    assertTrue(
        e.getMessage().contains("deviceId=" + Hex.of(rows.get(0).deviceId())), e.getMessage());
    w.close();
  }

  /**
   * The backfill copies a snapshot cell with its own timestamp and bulk-loads it, possibly after
   * the dual writer updated the same row. An update stamped by the writer (now, newer than any
   * snapshot cell) survives the load; an update that reuses the old cell's timestamp does not:
   * HBase gives the bulk-loaded file the newer sequence id, so on a timestamp tie the backfill's
   * stale value wins. That is why the writer stamps updates itself.
   */
  @Test
  void aDualWriteRacingTheBackfillKeepsTheNewerCell() throws Exception {
    Telemetry.Tables tables = Telemetry.create(conn, "race", V2);
    TableName v1 = tables.v1();
    TableName v2 = tables.v2();
    Telemetry.Reading a = new Telemetry.Reading(T0 + 1_000, Telemetry.deviceId(1), 1);
    Telemetry.Reading b = new Telemetry.Reading(T0 + 2_000, Telemetry.deviceId(2), 2);
    try (DualWriter w = DualWriter.builder(conn).oldTable(v1, V1).newTable(v2, V2).build();
        LayoutReader r2 = LayoutReader.open(conn, v2, V2)) {
      // the updates arrive during the backfill: a stamped by the writer, b with its event time as
      // timestamp
      w.mutate(a.fields(), List.of(Column.of(D, V, Bytes.toBytes("updated"))));
      w.mutate(b.fields(), List.of(Column.at(D, V, b.ts(), Bytes.toBytes("updated"))));
      w.flush();
      // then the backfill loads the snapshot's (older) cells of both rows, under their new keys
      bulkLoad(
          v2,
          List.of(
              new KeyValue(V2.encode(a.fields()), D, V, a.ts(), Bytes.toBytes("snapshot")),
              new KeyValue(V2.encode(b.fields()), D, V, b.ts(), Bytes.toBytes("snapshot"))));
      assertEquals("updated", Bytes.toString(r2.get(a.fields()).orElseThrow().getValue(D, V)));
      assertEquals(
          "snapshot",
          Bytes.toString(r2.get(b.fields()).orElseThrow().getValue(D, V)),
          "control: on a timestamp tie the later bulk load wins");
    }
  }

  /**
   * Writes the cells (any order) to one HFile and bulk-loads it, as the backfill's load step does.
   */
  private static void bulkLoad(TableName table, List<KeyValue> cells) throws Exception {
    Configuration conf = ClientHBase.conf();
    java.nio.file.Path dir =
        Layouts.home().resolve("target/test-run-client/bulk-" + table.getNameAsString());
    Files.createDirectories(dir.resolve("d"));
    FileSystem fs = FileSystem.getLocal(conf);
    List<KeyValue> sorted = cells.stream().sorted(KeyValue.COMPARATOR).toList();
    try (HFile.Writer w =
        HFile.getWriterFactory(conf, new CacheConfig(conf))
            .withPath(fs, new Path(dir.resolve("d/cells").toUri()))
            .withFileContext(new HFileContextBuilder().build())
            .create()) {
      for (KeyValue kv : sorted) {
        w.append(kv);
      }
    }
    conf.set(BulkLoadHFiles.CREATE_TABLE_CONF_KEY, "no");
    Map<?, ?> loaded = BulkLoadHFiles.create(conf).bulkLoad(table, new Path(dir.toUri()));
    assertTrue(!loaded.isEmpty(), "nothing loaded");
  }

  /**
   * Writes {@code rows} and flushes: the flush must fail for every one of them, naming {@code
   * failing}, the table they could not be written to.
   */
  private static DualWriteException failedFlush(
      DualWriter w, List<Telemetry.Reading> rows, TableName failing) throws Exception {
    for (Telemetry.Reading r : rows) {
      w.mutate(r.fields(), r.cells());
    }
    DualWriteException e = assertThrows(DualWriteException.class, w::flush);
    assertEquals(rows.size(), e.failures().size());
    assertTrue(
        e.getMessage()
            .startsWith(
                "Cannot dual-write "
                    + rows.size()
                    + " mutations: "
                    + failing.getNameAsString()
                    + " row "),
        e.getMessage());
    return e;
  }
}

package dev.rekey.client;

import static dev.rekey.client.Telemetry.D;
import static dev.rekey.client.Telemetry.HOUR;
import static dev.rekey.client.Telemetry.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.rowkey.KeyLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two new tables, one per query shape: windows from the salted table, one device's history from the
 * history table, each shape switched on its own; the old table serves both meanwhile (a history as
 * its window filtered by the device on the region servers).
 */
@Tag("e2e")
class ReadRoutesIT {
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");
  private static final KeyLayout BY_DEVICE = Layouts.shipped("telemetry-by-device");

  @Test
  void windowsAndHistoriesGoToTheirOwnTableAndSwitchApart() throws Exception {
    Connection conn = ClientHBase.connection();
    Telemetry.Tables tables = Telemetry.create(conn, "routes", V2);
    TableName byDevice = ClientHBase.uniqueTable("routes_by_device");
    try (Admin admin = conn.getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(byDevice)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(D))
              .build(),
          BY_DEVICE.splitPoints(4).toArray(new byte[0][]));
    }
    List<Telemetry.Reading> rows = Telemetry.day(400, 8, 21);
    try (DualWriter w =
        DualWriter.builder(conn)
            .oldTable(tables.v1(), V1)
            .newTable(tables.v2(), V2)
            .newTable(byDevice, BY_DEVICE)
            .build()) {
      for (Telemetry.Reading r : rows) {
        w.mutate(r.fields(), r.cells());
      }
      w.flush();
    }
    byte[] device = Telemetry.deviceId(3);
    long from = T0 + 4 * HOUR;
    long to = T0 + 16 * HOUR;
    ReadQuery window = ReadQuery.window(from, to);
    ReadQuery history = ReadQuery.builder().where("deviceId", device).window(from, to).build();
    List<Long> windowTimes = times(rows, null, from, to);
    List<Long> historyTimes = times(rows, device, from, to);
    assertTrue(historyTimes.size() > 5 && historyTimes.size() < windowTimes.size());

    try (LayoutReader old = LayoutReader.open(conn, tables.v1(), V1);
        LayoutReader salted = LayoutReader.open(conn, tables.v2(), V2);
        LayoutReader histories = LayoutReader.open(conn, byDevice, BY_DEVICE)) {
      ReadRoutes reads =
          ReadRoutes.builder()
              .shape("windows", new ReadSwitch(old, salted, ReadSwitch.Mode.SHADOW))
              .shape("histories", new ReadSwitch(old, histories, ReadSwitch.Mode.SHADOW))
              .build();
      assertEquals("windows", reads.shapeOf(window));
      // the salted table could serve it too (its window, filtered), the history table by key
      assertEquals("histories", reads.shapeOf(history));

      // SHADOW: served by the old table (the history: its window filtered by the device)
      assertEquals(windowTimes, decodedTimes(V1, reads.scan(window)));
      assertEquals(historyTimes, decodedTimes(V1, reads.scan(history)));
      assertTrue(reads.stats().get("windows").agreed(), reads.stats().toString());
      assertTrue(reads.stats().get("histories").agreed(), reads.stats().toString());
      assertEquals(1, reads.stats().get("histories").shadowReads());

      // windows switch first; histories stay shadowed
      reads.mode("windows", ReadSwitch.Mode.NEW);
      assertEquals(windowTimes, decodedTimes(V2, reads.scan(window)));
      assertEquals(historyTimes, decodedTimes(V1, reads.scan(history)));
      assertEquals(1, reads.stats().get("windows").shadowReads());
      assertEquals(2, reads.stats().get("histories").shadowReads());

      // then histories: one range scan of the history table, newest first
      reads.mode("histories", ReadSwitch.Mode.NEW);
      List<Long> newestFirst = new ArrayList<>(historyTimes);
      newestFirst.sort(Comparator.reverseOrder());
      assertEquals(newestFirst, decodedTimes(BY_DEVICE, reads.scan(history)));
      assertEquals(1, histories.plan(history).ranges().size());
      // a whole history (no window) only the history table's key serves
      ReadQuery all = ReadQuery.builder().where("deviceId", device).build();
      assertEquals("histories", reads.shapeOf(all));
      assertEquals(times(rows, device, 0, Long.MAX_VALUE).size(), reads.scan(all).size());
      reads.mode("histories", ReadSwitch.Mode.OLD);
      assertThrows(UnsupportedReadException.class, () -> reads.scan(all));
      assertThrows(IllegalArgumentException.class, () -> reads.mode("points", ReadSwitch.Mode.NEW));
    }
  }

  private static List<Long> times(List<Telemetry.Reading> rows, byte[] device, long from, long to) {
    List<Long> out = new ArrayList<>();
    for (Telemetry.Reading r : rows) {
      if (r.ts() >= from
          && r.ts() < to
          && (device == null || Arrays.equals(device, r.deviceId()))) {
        out.add(r.ts());
      }
    }
    return out;
  }

  private static List<Long> decodedTimes(KeyLayout layout, List<Result> rows) {
    List<Long> out = new ArrayList<>();
    for (Result r : rows) {
      out.add((Long) layout.decode(r.getRow()).get("ts"));
    }
    return out;
  }
}

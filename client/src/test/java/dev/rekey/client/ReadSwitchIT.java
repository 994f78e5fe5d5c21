package dev.rekey.client;

import static dev.rekey.client.Telemetry.D;
import static dev.rekey.client.Telemetry.HOUR;
import static dev.rekey.client.Telemetry.V;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** OLD, SHADOW and NEW against two real tables that agree except for two planted differences. */
@Tag("e2e")
class ReadSwitchIT {
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");

  @Test
  void shadowServesOldAndCountsThePlantedDifferences() throws Exception {
    Connection conn = ClientHBase.connection();
    Telemetry.Tables tables = Telemetry.create(conn, "switch", V2);
    TableName v1 = tables.v1();
    TableName v2 = tables.v2();
    List<Telemetry.Reading> rows = Telemetry.day(500, 20, 13);
    try (DualWriter w = DualWriter.builder(conn).oldTable(v1, V1).newTable(v2, V2).build()) {
      for (Telemetry.Reading r : rows) {
        w.mutate(r.fields(), r.cells());
      }
      w.flush();
    }
    // plant: one row missing from v2, one row with a different value in v2
    Telemetry.Reading missing = rows.get(100);
    Telemetry.Reading changed = rows.get(101);
    try (Table t = conn.getTable(v2)) {
      t.delete(new Delete(V2.encode(missing.fields())));
      t.put(new Put(V2.encode(changed.fields())).addColumn(D, V, changed.ts(), Bytes.toBytes(-1L)));
    }
    Telemetry.Reading same = rows.get(300);
    long from = Math.min(missing.ts(), changed.ts()) - HOUR;
    ReadQuery window =
        ReadQuery.window(from, from + 2 * HOUR + Math.abs(changed.ts() - missing.ts()));

    try (LayoutReader oldReader = LayoutReader.open(conn, v1, V1);
        LayoutReader newReader = LayoutReader.open(conn, v2, V2)) {
      ReadSwitch reads = new ReadSwitch(oldReader, newReader, ReadSwitch.Mode.SHADOW);
      assertEquals(
          changed.value(),
          value(reads.get(changed.fields()).orElseThrow()),
          "SHADOW serves the old table");
      assertTrue(reads.get(missing.fields()).isPresent(), "SHADOW serves the old table");
      reads.get(same.fields());
      List<org.apache.hadoop.hbase.client.Result> served = reads.scan(window);
      assertEquals(oldReader.scan(window).size(), served.size());

      ReadSwitch.Stats s = reads.stats();
      assertEquals(4, s.reads());
      assertEquals(4, s.shadowReads());
      assertEquals(3, s.mismatchedReads(), s.samples().toString()); // two gets and the scan
      assertEquals(4, s.mismatchedRows(), s.samples().toString()); // 1 + 1 + the scan's 2
      assertEquals(0, s.shadowErrors());
      String deviceChanged = "deviceId=" + Hex.of(changed.deviceId());
      String deviceMissing = "deviceId=" + Hex.of(missing.deviceId());
      assertTrue(
          s.samples().stream()
              .anyMatch(x -> x.contains(deviceChanged) && x.contains("cells differ")),
          s.samples().toString());
      assertTrue(
          s.samples().stream()
              .anyMatch(x -> x.contains(deviceMissing) && x.contains("only in old")),
          s.samples().toString());

      reads.mode(ReadSwitch.Mode.NEW);
      assertEquals(
          -1L, value(reads.get(changed.fields()).orElseThrow()), "NEW serves the new table");
      assertTrue(reads.get(missing.fields()).isEmpty());
      assertEquals(4, reads.stats().shadowReads(), "NEW reads only the new table");

      reads.mode(ReadSwitch.Mode.OLD);
      assertEquals(changed.value(), value(reads.get(changed.fields()).orElseThrow()));
      assertEquals(4, reads.stats().shadowReads());

      // a quarter of the shadow reads compared, set while the switch serves: the skipped ones are
      // served from old and counted, never compared
      reads.mode(ReadSwitch.Mode.SHADOW);
      reads.shadowFraction(0.25);
      assertEquals(0.25, reads.shadowFraction());
      for (int i = 0; i < 8; i++) {
        assertEquals(
            changed.value(),
            value(reads.get(changed.fields()).orElseThrow()),
            "a sampled-out read is still served from old");
      }
      ReadSwitch.Stats sampled = reads.stats();
      assertEquals(4 + 2, sampled.shadowReads(), "reads 3 and 7 of 8 compared");
      assertEquals(6, sampled.skippedShadowReads());
      assertEquals(3 + 2, sampled.mismatchedReads(), "each compared read of the changed row");
      assertTrue(sampled.line().contains("6 not compared (sampled out)"), sampled.line());
    }
  }

  private static long value(org.apache.hadoop.hbase.client.Result r) {
    return Bytes.toLong(r.getValue(D, V));
  }
}

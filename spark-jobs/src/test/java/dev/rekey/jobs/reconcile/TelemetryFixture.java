package dev.rekey.jobs.reconcile;

import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The same generated readings written to a 1-region v1 table and a 16-region v2 table (salted keys)
 * with Puts.
 */
final class TelemetryFixture {
  static final Path HOME = SharedHBase.rekeyHome();
  static final Path V1_FILE = Layouts.file("telemetry-v1");
  static final Path V2_FILE = Layouts.file("telemetry-v2");
  static final KeyLayout V1 = KeyLayout.load(V1_FILE);
  static final KeyLayout V2 = KeyLayout.load(V2_FILE);
  static final long HOUR = 3_600_000L;
  static final long START = TelemetryGenerator.DEFAULT_START;

  /** 1,200 readings of 20 devices over 6 hours: 200 per hour, one every 18 s. */
  static final TelemetryGenerator GEN = new TelemetryGenerator(1_200, 20, START, 6 * HOUR);

  private TelemetryFixture() {}

  static List<TelemetryReading> readings() {
    List<TelemetryReading> out = new ArrayList<>();
    for (long i = 0; i < GEN.rows(); i++) {
      out.add(GEN.reading(i));
    }
    return out;
  }

  static TableName v1Table(List<TelemetryReading> rows) throws IOException {
    TableName t = SharedHBase.uniqueTable("rc_v1");
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      LegacyTelemetryTable.create(admin, t);
    }
    List<Put> puts = new ArrayList<>();
    for (TelemetryReading r : rows) {
      puts.add(LegacyTelemetryTable.put(r));
    }
    try (Table table = SharedHBase.connection().getTable(t)) {
      table.put(puts);
    }
    return t;
  }

  static byte[] v2Key(TelemetryReading r) {
    return V2.encode(Map.of("ts", r.ts(), "deviceId", r.deviceId()));
  }

  /** The v2 put of a reading: the same cells as the legacy table's, under the salted key. */
  static Put v2Put(TelemetryReading r) {
    return v2Put(r, r.ts(), r.value());
  }

  /** The v2 put of a reading whose value cell is {@code value} at {@code valueTs}. */
  static Put v2Put(TelemetryReading r, long valueTs, long value) {
    Put p = new Put(v2Key(r));
    p.addColumn(
        LegacyTelemetryTable.FAMILY, LegacyTelemetryTable.VALUE, valueTs, Bytes.toBytes(value));
    p.addColumn(
        LegacyTelemetryTable.FAMILY,
        LegacyTelemetryTable.STATUS,
        r.ts(),
        Bytes.toBytes(r.status()));
    return p;
  }

  static TableName v2Table(List<Put> puts) throws IOException {
    TableName t = SharedHBase.uniqueTable("rc_v2");
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(t)
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(LegacyTelemetryTable.FAMILY).build())
              .build(),
          V2.splitPoints(16).toArray(new byte[0][]));
    }
    try (Table table = SharedHBase.connection().getTable(t)) {
      table.put(puts);
    }
    return t;
  }

  static List<Put> v2Puts(List<TelemetryReading> rows) {
    List<Put> puts = new ArrayList<>();
    for (TelemetryReading r : rows) {
      puts.add(v2Put(r));
    }
    return puts;
  }
}

package dev.rekey.demo;

import dev.rekey.client.Column;
import dev.rekey.client.DualWriter;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Where the demo's writer ({@link DemoDualWrites}) writes: both tables through the client's {@link
 * DualWriter} (dual writes), or the old table only, as the application always has, while {@code
 * rekey replicate} carries every edit to the new table ({@code demo --writers replication}).
 */
interface DemoWrites extends Closeable {
  /** A new reading, its cells stamped with its own time. */
  void write(TelemetryReading r) throws IOException;

  /** A new value of an old reading's {@code d:v}, stamped now (newer than the snapshot's cell). */
  void update(TelemetryReading r, long value) throws IOException;

  void flush() throws IOException;

  /** The tables written, for the demo's lines: "both tables", "telemetry_v1 only". */
  String where();

  static DemoWrites dual(DualWriter writer) {
    return new DemoWrites() {
      @Override
      public void write(TelemetryReading r) throws IOException {
        writer.mutate(
            Map.of("ts", r.ts(), "deviceId", r.deviceId()),
            List.of(
                Column.at(
                    LegacyTelemetryTable.FAMILY,
                    LegacyTelemetryTable.VALUE,
                    r.ts(),
                    Bytes.toBytes(r.value())),
                Column.at(
                    LegacyTelemetryTable.FAMILY,
                    LegacyTelemetryTable.STATUS,
                    r.ts(),
                    Bytes.toBytes(r.status()))));
      }

      @Override
      public void update(TelemetryReading r, long value) throws IOException {
        // Column.of: the writer stamps one time on both tables
        writer.mutate(
            Map.of("ts", r.ts(), "deviceId", r.deviceId()),
            List.of(
                Column.of(
                    LegacyTelemetryTable.FAMILY,
                    LegacyTelemetryTable.VALUE,
                    Bytes.toBytes(value))));
      }

      @Override
      public void flush() throws IOException {
        writer.flush();
      }

      @Override
      public String where() {
        return "both tables";
      }

      @Override
      public void close() throws IOException {
        writer.close();
      }
    };
  }

  /**
   * The old table only, through a BufferedMutator (WAL on): the edits reach the new table by
   * replication.
   */
  static DemoWrites oldTableOnly(Connection conn, TableName table) throws IOException {
    BufferedMutator m = conn.getBufferedMutator(table);
    return new DemoWrites() {
      @Override
      public void write(TelemetryReading r) throws IOException {
        m.mutate(LegacyTelemetryTable.put(r));
      }

      @Override
      public void update(TelemetryReading r, long value) throws IOException {
        // no timestamp: the RegionServer stamps it, and the WAL edit carries that stamp to the new
        // table
        m.mutate(
            new Put(LegacyTelemetryTable.rowKey(r))
                .addColumn(
                    LegacyTelemetryTable.FAMILY, LegacyTelemetryTable.VALUE, Bytes.toBytes(value)));
      }

      @Override
      public void flush() throws IOException {
        m.flush();
      }

      @Override
      public String where() {
        return table.getNameAsString() + " only";
      }

      @Override
      public void close() throws IOException {
        m.close();
      }
    };
  }
}

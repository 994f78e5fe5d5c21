package dev.rekey.demo;

import java.io.IOException;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The demo's legacy table: key {@code ts (8 bytes, big-endian) | deviceId (16 bytes)} (layout
 * telemetry-v1), one region, family {@code d} with {@code v} (the reading, 8-byte long) and {@code
 * s} (status, UTF-8). Cell timestamps are the event times, so time-range scans and reconciliation
 * by cell time work.
 */
public final class LegacyTelemetryTable {
  public static final byte[] FAMILY = Bytes.toBytes("d");
  public static final byte[] VALUE = Bytes.toBytes("v");
  public static final byte[] STATUS = Bytes.toBytes("s");

  private LegacyTelemetryTable() {}

  public static byte[] rowKey(TelemetryReading r) {
    return Bytes.add(Bytes.toBytes(r.ts()), r.deviceId());
  }

  public static Put put(TelemetryReading r) {
    Put p = new Put(rowKey(r));
    p.addColumn(FAMILY, VALUE, r.ts(), Bytes.toBytes(r.value()));
    p.addColumn(FAMILY, STATUS, r.ts(), Bytes.toBytes(r.status()));
    p.setDurability(Durability.USE_DEFAULT); // WAL on: this is how the legacy writers wrote
    return p;
  }

  public static void create(Admin admin, TableName name) throws IOException {
    create(admin, name, new byte[0][]);
  }

  /** The table split at {@code splits} (row keys; none: one region, as the demo's table starts). */
  public static void create(Admin admin, TableName name, byte[][] splits) throws IOException {
    var table =
        TableDescriptorBuilder.newBuilder(name)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).build())
            .build();
    if (splits.length == 0) {
      admin.createTable(table);
    } else {
      admin.createTable(table, splits);
    }
  }

  /**
   * Writes every reading of the generator through a BufferedMutator, reporting progress about every
   * two seconds.
   *
   * @return rows written
   */
  public static long write(
      Connection conn, TableName name, TelemetryGenerator gen, Consumer<String> progress)
      throws IOException {
    long t0 = System.nanoTime();
    long lastReport = t0;
    BufferedMutatorParams params = new BufferedMutatorParams(name).writeBufferSize(8L << 20);
    try (BufferedMutator mutator = conn.getBufferedMutator(params)) {
      for (long i = 0; i < gen.rows(); i++) {
        mutator.mutate(put(gen.reading(i)));
        long now = System.nanoTime();
        if (now - lastReport > 2_000_000_000L) {
          lastReport = now;
          progress.accept(
              String.format(
                  "  wrote %,d / %,d rows (%,.0f rows/s)",
                  i + 1, gen.rows(), (i + 1) / ((now - t0) / 1e9)));
        }
      }
      mutator.flush();
    }
    return gen.rows();
  }
}

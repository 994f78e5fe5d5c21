package dev.rekey.demo;

import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The demo's events table (layout events-v2: md5(userId)[0..2] | userId 0x00 | reversed ts),
 * pre-split along the hash prefix, family {@code e} with {@code type} (UTF-8) and {@code cents}
 * (8-byte long); cell timestamps are the event times, so the nightly scan's time window selects by
 * event time.
 */
public final class EventsTable {
  public static final byte[] FAMILY = Bytes.toBytes("e");
  public static final byte[] TYPE = Bytes.toBytes("type");
  public static final byte[] CENTS = Bytes.toBytes("cents");

  private EventsTable() {}

  public static byte[] rowKey(KeyLayout layout, EventGenerator.Event e) {
    return layout.encode(Map.of("userId", e.userId(), "ts", e.ts()));
  }

  /** Creates the table pre-split into {@code regions} regions along the layout's prefix space. */
  public static void create(Admin admin, TableName name, KeyLayout layout, int regions)
      throws IOException {
    List<byte[]> splits = layout.splitPoints(regions);
    admin.createTable(
        TableDescriptorBuilder.newBuilder(name)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).build())
            .build(),
        splits.toArray(new byte[0][]));
  }

  /**
   * As {@link #create}, for a table written a day at a time and flushed after each day: its
   * compactions are off, so each region keeps one store file per day (what daily bulk loads leave,
   * or what date-tiered compaction keeps), and a store may hold more than HBase's default 16 files
   * before writes wait for a compaction.
   */
  public static void createOneFilePerDay(Admin admin, TableName name, KeyLayout layout, int regions)
      throws IOException {
    admin.createTable(
        TableDescriptorBuilder.newBuilder(name)
            .setCompactionEnabled(false)
            .setColumnFamily(
                ColumnFamilyDescriptorBuilder.newBuilder(FAMILY)
                    .setConfiguration("hbase.hstore.blockingStoreFiles", "1000")
                    .build())
            .build(),
        layout.splitPoints(regions).toArray(new byte[0][]));
  }

  /** Writes every event; returns how many. */
  public static long write(Connection conn, TableName name, KeyLayout layout, EventGenerator gen)
      throws IOException {
    return write(conn, name, layout, gen, 0, gen.events());
  }

  /** Writes events {@code from} (inclusive) to {@code to} (exclusive); returns how many. */
  public static long write(
      Connection conn, TableName name, KeyLayout layout, EventGenerator gen, int from, int to)
      throws IOException {
    try (BufferedMutator m = conn.getBufferedMutator(name)) {
      for (int i = from; i < to; i++) {
        EventGenerator.Event e = gen.event(i);
        Put p = new Put(rowKey(layout, e));
        p.addColumn(FAMILY, TYPE, e.ts(), Bytes.toBytes(e.type()));
        p.addColumn(FAMILY, CENTS, e.ts(), Bytes.toBytes(e.cents()));
        m.mutate(p);
      }
      m.flush();
    }
    return to - from;
  }
}

package dev.rekey.client;

import dev.rekey.rowkey.FieldValues;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;

/**
 * Writes every mutation of the migration window to the old table under the old key and to each new
 * table under its own key (one or more: a salted time-first table and an entity-first history
 * table, {@code .newTable(t2, l2).newTable(t3, l3)}), through one {@link BufferedMutator} per table
 * (batched put lists, WAL on unless {@link Builder#skipWal()}).
 *
 * <p>Every copy carries the <b>same explicit cell timestamps</b>: cells without one are stamped
 * with one clock reading per mutation. The backfill copies history with the source's timestamps, so
 * a dual-written cell that is newer than the snapshot always wins over the backfilled one,
 * whichever reaches the new table last.
 *
 * <p>A new table may be on another cluster than the old one (a migration to a new cluster): give it
 * with that cluster's connection, {@code .newTable(t2, l2, newClusterConnection)} (one connection
 * per cluster); failures then name the table as the new cluster's.
 *
 * <p>Failures of any table are collected (the mutators' exception listeners) and raised by {@link
 * #flush()} and {@link #close()} as a {@link DualWriteException} naming the table and every failed
 * row: a successful flush means everything since the previous one is on every table. Thread-safe.
 */
public final class DualWriter implements AutoCloseable {
  private final Side old;
  private final List<Side> news;
  private final List<Side> all;
  private final Durability durability;
  private final LongSupplier clock;
  private final List<FailedWrite> failures = new ArrayList<>();

  private DualWriter(Builder b) throws IOException {
    this.durability = b.skipWal ? Durability.SKIP_WAL : Durability.USE_DEFAULT;
    this.clock = b.clock;
    List<Side> opened = new ArrayList<>();
    try {
      opened.add(new Side(b.conn, b.oldTable, b.oldLayout, b.writeBufferSize, false));
      for (Target t : b.newTables) {
        opened.add(
            new Side(t.conn(), t.table(), t.layout(), b.writeBufferSize, t.conn() != b.conn));
      }
    } catch (IOException | RuntimeException e) {
      for (Side s : opened) {
        s.mutator.close();
      }
      throw e;
    }
    this.all = List.copyOf(opened);
    this.old = all.get(0);
    this.news = all.subList(1, all.size());
  }

  public static Builder builder(Connection conn) {
    return new Builder(conn);
  }

  /**
   * Writes the cells of one natural key to every table (buffered; {@link #flush()} confirms). A
   * natural key any layout cannot encode is refused before anything is written
   * (KeyEncodeException). An exception thrown here means the write is not acknowledged and may have
   * reached some tables only: write it again (puts with explicit timestamps are idempotent).
   */
  public void mutate(Map<String, ?> fields, List<Column> cells) throws IOException {
    if (cells.isEmpty()) {
      throw new IllegalArgumentException("Cannot dual-write " + fields + ": no cells given");
    }
    // every key first: a natural key one layout cannot encode must not leave a write on another
    // table
    byte[][] keys = keys(fields);
    long now = clock.getAsLong();
    for (int i = 0; i < all.size(); i++) {
      all.get(i).mutator.mutate(put(keys[i], cells, now));
    }
  }

  /**
   * Deletes the whole row of a natural key on every table, at one timestamp (now): all lose the
   * same versions.
   */
  public void delete(Map<String, ?> fields) throws IOException {
    delete(fields, clock.getAsLong());
  }

  /**
   * Deletes every cell at or before {@code timestamp} in the row of a natural key, on every table.
   */
  public void delete(Map<String, ?> fields, long timestamp) throws IOException {
    byte[][] keys = keys(fields);
    for (int i = 0; i < all.size(); i++) {
      all.get(i).mutator.mutate(new Delete(keys[i], timestamp).setDurability(durability));
    }
  }

  /** The new tables, in the order given to the builder. */
  public List<TableName> newTables() {
    return news.stream().map(s -> s.table).toList();
  }

  /** The natural key under each table's layout: the old table's first, then each new table's. */
  private byte[][] keys(Map<String, ?> fields) {
    byte[][] keys = new byte[all.size()][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = all.get(i).key(fields);
    }
    return keys;
  }

  private Put put(byte[] key, List<Column> cells, long now) {
    Put p = new Put(key);
    for (Column c : cells) {
      p.addColumn(c.family(), c.qualifier(), c.stampedByWriter() ? now : c.timestamp(), c.value());
    }
    p.setDurability(durability);
    return p;
  }

  /**
   * Sends everything buffered to every table and waits; throws {@link DualWriteException} naming
   * the table and every row it failed since the last flush.
   */
  public void flush() throws IOException {
    IOException ioe = null;
    for (Side s : all) {
      try {
        s.mutator.flush();
      } catch (RetriesExhaustedWithDetailsException e) {
        s.collect(e);
      } catch (IOException e) {
        ioe = ioe == null ? e : ioe;
      }
    }
    raiseFailures(ioe);
  }

  @Override
  public void close() throws IOException {
    IOException ioe = null;
    for (Side s : all) {
      try {
        s.mutator.close();
      } catch (RetriesExhaustedWithDetailsException e) {
        s.collect(e);
      } catch (IOException e) {
        ioe = ioe == null ? e : ioe;
      }
    }
    raiseFailures(ioe);
  }

  private void raiseFailures(IOException other) throws IOException {
    List<FailedWrite> f;
    synchronized (failures) {
      f = List.copyOf(failures);
      failures.clear();
    }
    if (!f.isEmpty()) {
      DualWriteException e = new DualWriteException(f);
      if (other != null) {
        e.addSuppressed(other);
      }
      throw e;
    }
    if (other != null) {
      throw other;
    }
  }

  /** One table's mutator and key layout. */
  private final class Side {
    final TableName table;
    final KeyLayout layout;
    final BufferedMutator mutator;

    /** The table as failures name it: with its cluster when that is not the old table's. */
    final String name;

    Side(Connection conn, TableName table, KeyLayout layout, long bufferSize, boolean otherCluster)
        throws IOException {
      this.table = table;
      this.layout = layout;
      this.name =
          otherCluster
              ? table.getNameAsString() + " (on the new cluster, not the old table's)"
              : table.getNameAsString();
      // collect instead of throwing from a later, unrelated mutate(): flush()/close() raise them
      // with the rows named
      this.mutator =
          conn.getBufferedMutator(
              new BufferedMutatorParams(table)
                  .writeBufferSize(bufferSize)
                  .listener((e, m) -> collect(e)));
    }

    byte[] key(Map<String, ?> fields) {
      @SuppressWarnings("unchecked")
      Map<String, Object> f = (Map<String, Object>) fields;
      return layout.encode(f);
    }

    void collect(RetriesExhaustedWithDetailsException e) {
      synchronized (failures) {
        for (int i = 0; i < e.getNumExceptions(); i++) {
          byte[] row = e.getRow(i).getRow();
          failures.add(new FailedWrite(name, row, natural(row), e.getCause(i)));
        }
      }
    }

    private String natural(byte[] row) {
      try {
        return FieldValues.format(layout, layout.decode(row).fields()).toString();
      } catch (RuntimeException notDecodable) {
        return "key " + Hex.of(row);
      }
    }
  }

  /** A new table, its layout and the connection to its cluster. */
  private record Target(Connection conn, TableName table, KeyLayout layout) {}

  /**
   * Builder of a {@link DualWriter}: the old table and at least one new table, each with its
   * layout, are required.
   */
  public static final class Builder {
    private final Connection conn;
    private TableName oldTable;
    private KeyLayout oldLayout;
    private final List<Target> newTables = new ArrayList<>();
    private boolean skipWal;
    private long writeBufferSize = 4L << 20;
    private LongSupplier clock = System::currentTimeMillis;

    private Builder(Connection conn) {
      this.conn = conn;
    }

    public Builder oldTable(TableName table, KeyLayout layout) {
      this.oldTable = table;
      this.oldLayout = layout;
      return this;
    }

    /**
     * Adds a new table written under its own layout; call once per new table ({@code .newTable(t2,
     * l2).newTable(t3, l3)}). A table given twice is refused.
     */
    public Builder newTable(TableName table, KeyLayout layout) {
      return newTable(table, layout, conn);
    }

    /**
     * Adds a new table on another cluster than the old table's ({@code conn}: that cluster's
     * connection, closed by its owner, not by the writer). The same table on the same cluster twice
     * is refused; a table of the same name on another cluster is another table.
     */
    public Builder newTable(TableName table, KeyLayout layout, Connection conn) {
      if (table == null || layout == null || conn == null) {
        throw new IllegalArgumentException(
            "Cannot add a new table to a dual writer: give a table, its layout and its cluster's"
                + " connection");
      }
      if (sameTable(this.conn, oldTable, conn, table)
          || newTables.stream().anyMatch(t -> sameTable(t.conn(), t.table(), conn, table))) {
        throw new IllegalArgumentException(
            "Cannot dual-write " + table + " twice: each table is given once");
      }
      newTables.add(new Target(conn, table, layout));
      return this;
    }

    private static boolean sameTable(Connection c1, TableName t1, Connection c2, TableName t2) {
      // one connection per cluster: a table of the same name through another connection is
      // another cluster's table
      return t2.equals(t1) && c1 == c2;
    }

    /**
     * Opt out of the WAL on every table: faster, and edits since the last flush die with a
     * RegionServer.
     */
    public Builder skipWal() {
      this.skipWal = true;
      return this;
    }

    public Builder writeBufferSize(long bytes) {
      this.writeBufferSize = bytes;
      return this;
    }

    /** Where writer-stamped timestamps come from (default: the wall clock, epoch millis). */
    public Builder clock(LongSupplier millis) {
      this.clock = millis;
      return this;
    }

    public DualWriter build() throws IOException {
      if (oldTable == null || newTables.isEmpty()) {
        throw new IllegalStateException(
            "Cannot build a dual writer: give oldTable(...) and at least one newTable(...)");
      }
      if (newTables.stream().anyMatch(t -> sameTable(conn, oldTable, t.conn(), t.table()))) {
        throw new IllegalStateException(
            "Cannot build a dual writer: " + oldTable + " is both the old table and a new one");
      }
      return new DualWriter(this);
    }
  }
}

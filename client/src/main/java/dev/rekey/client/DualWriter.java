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
 * Writes every mutation of the migration window to the old table under the old key and to the new
 * table under the new key, through one {@link BufferedMutator} per table (batched put lists, WAL on
 * unless {@link Builder#skipWal()}).
 *
 * <p>Both copies carry the <b>same explicit cell timestamps</b>: cells without one are stamped with
 * one clock reading per mutation. The backfill copies history with the source's timestamps, so a
 * dual-written cell that is newer than the snapshot always wins over the backfilled one, whichever
 * reaches the new table last.
 *
 * <p>Failures of either side are collected (the mutators' exception listeners) and raised by {@link
 * #flush()} and {@link #close()} as a {@link DualWriteException} naming every failed row: a
 * successful flush means everything since the previous one is on both tables. Thread-safe.
 */
public final class DualWriter implements AutoCloseable {
  private final Side old;
  private final Side next;
  private final Durability durability;
  private final LongSupplier clock;
  private final List<FailedWrite> failures = new ArrayList<>();

  private DualWriter(Builder b) throws IOException {
    this.durability = b.skipWal ? Durability.SKIP_WAL : Durability.USE_DEFAULT;
    this.clock = b.clock;
    this.old = new Side(b.conn, b.oldTable, b.oldLayout, b.writeBufferSize);
    Side n;
    try {
      n = new Side(b.conn, b.newTable, b.newLayout, b.writeBufferSize);
    } catch (IOException | RuntimeException e) {
      old.mutator.close();
      throw e;
    }
    this.next = n;
  }

  public static Builder builder(Connection conn) {
    return new Builder(conn);
  }

  /**
   * Writes the cells of one natural key to both tables (buffered; {@link #flush()} confirms). A
   * natural key either layout cannot encode is refused before anything is written
   * (KeyEncodeException). An exception thrown here means the write is not acknowledged and may have
   * reached one table only: write it again (puts with explicit timestamps are idempotent).
   */
  public void mutate(Map<String, ?> fields, List<Column> cells) throws IOException {
    if (cells.isEmpty()) {
      throw new IllegalArgumentException("Cannot dual-write " + fields + ": no cells given");
    }
    // both keys first: a natural key one layout cannot encode must not leave a write on the other
    // table
    byte[] oldKey = old.key(fields);
    byte[] newKey = next.key(fields);
    long now = clock.getAsLong();
    old.mutator.mutate(put(oldKey, cells, now));
    next.mutator.mutate(put(newKey, cells, now));
  }

  /**
   * Deletes the whole row of a natural key on both tables, at one timestamp (now): both lose the
   * same versions.
   */
  public void delete(Map<String, ?> fields) throws IOException {
    delete(fields, clock.getAsLong());
  }

  /**
   * Deletes every cell at or before {@code timestamp} in the row of a natural key, on both tables.
   */
  public void delete(Map<String, ?> fields, long timestamp) throws IOException {
    byte[] oldKey = old.key(fields);
    byte[] newKey = next.key(fields);
    old.mutator.mutate(new Delete(oldKey, timestamp).setDurability(durability));
    next.mutator.mutate(new Delete(newKey, timestamp).setDurability(durability));
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
   * Sends everything buffered to both tables and waits; throws {@link DualWriteException} naming
   * every row either side failed since the last flush.
   */
  public void flush() throws IOException {
    IOException ioe = null;
    for (Side s : List.of(old, next)) {
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
    for (Side s : List.of(old, next)) {
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

    Side(Connection conn, TableName table, KeyLayout layout, long bufferSize) throws IOException {
      this.table = table;
      this.layout = layout;
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
          failures.add(new FailedWrite(table.getNameAsString(), row, natural(row), e.getCause(i)));
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

  /** Builder of a {@link DualWriter}: both tables with their layouts are required. */
  public static final class Builder {
    private final Connection conn;
    private TableName oldTable;
    private KeyLayout oldLayout;
    private TableName newTable;
    private KeyLayout newLayout;
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

    public Builder newTable(TableName table, KeyLayout layout) {
      this.newTable = table;
      this.newLayout = layout;
      return this;
    }

    /**
     * Opt out of the WAL on both tables: faster, and edits since the last flush die with a
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
      if (oldTable == null || newTable == null) {
        throw new IllegalStateException(
            "Cannot build a dual writer: give both oldTable(...) and newTable(...)");
      }
      return new DualWriter(this);
    }
  }
}

package dev.rekey.demo;

import dev.rekey.client.Column;
import dev.rekey.client.DualWriter;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The demo's dual writes (the migration's second step): from the moment telemetry_v2 exists, a
 * writer writes new readings to both tables through the client's {@link DualWriter}, and, while the
 * backfill runs, updates a few old readings. A first batch is written before the snapshot (so the
 * snapshot, and the backfill's row count, are the same on every run); a thread keeps writing until
 * {@link #stop()}.
 *
 * <p>New readings come from devices the generator never uses ({@link #isDualWriterDevice}); updates
 * add {@link #UPDATE_DELTA} to a reading's value, stamped by the writer (now, newer than the
 * snapshot's cell), so the backfill's older copy of the same cell can never shadow them.
 */
final class DemoDualWrites implements AutoCloseable {
  static final int FIRST_BATCH = 100;
  static final int UPDATES = 10;
  static final long UPDATE_DELTA = 1_000_000;
  private static final int DEVICES = 4;
  private static final long DAY = 24L * 3600 * 1000;

  private final Writes writer;

  /**
   * Where the demo's writer writes: every table through a {@link DualWriter}, or only the old table
   * (the migration with replication: the rekeying endpoint brings its edits to the new tables).
   */
  interface Writes extends java.io.Closeable {
    void mutate(Map<String, ?> fields, List<Column> cells) throws IOException;

    void flush() throws IOException;

    /** The tables written, for the output: "both tables", "all 3 tables", "telemetry_v1". */
    String tables();
  }

  /** A DualWriter as the demo's writer. */
  private static Writes dual(DualWriter w) {
    return new Writes() {
      @Override
      public void mutate(Map<String, ?> fields, List<Column> cells) throws IOException {
        w.mutate(fields, cells);
      }

      @Override
      public void flush() throws IOException {
        w.flush();
      }

      @Override
      public String tables() {
        int n = w.newTables().size() + 1;
        return n == 2 ? "both tables" : "all " + n + " tables";
      }

      @Override
      public void close() throws IOException {
        w.close();
      }
    };
  }

  /**
   * The old table alone, under its key, through a BufferedMutator (WAL on: replication reads it).
   */
  private static Writes oldTableOnly(Connection conn, KeyLayout v1) throws IOException {
    org.apache.hadoop.hbase.client.BufferedMutator m =
        conn.getBufferedMutator(DemoTables.TELEMETRY_V1);
    return new Writes() {
      @Override
      public void mutate(Map<String, ?> fields, List<Column> cells) throws IOException {
        @SuppressWarnings("unchecked")
        org.apache.hadoop.hbase.client.Put p =
            new org.apache.hadoop.hbase.client.Put(v1.encode((Map<String, Object>) fields));
        for (Column c : cells) {
          p.addColumn(c.family(), c.qualifier(), c.timestamp(), c.value());
        }
        m.mutate(p);
      }

      @Override
      public void flush() throws IOException {
        m.flush();
      }

      @Override
      public String tables() {
        return DemoTables.TELEMETRY_V1 + " only (replication brings them to the new tables)";
      }

      @Override
      public void close() throws IOException {
        m.close();
      }
    };
  }

  private final TelemetryGenerator gen;
  private final PrintStream out;

  /**
   * Counted down by stop()/close(): the writer thread waits on it between writes, so it stops at
   * once.
   */
  private final CountDownLatch stopping = new CountDownLatch(1);

  private final AtomicLong written = new AtomicLong();
  private final AtomicLong updated = new AtomicLong();
  private Thread thread;
  private volatile Exception failure;

  private DemoDualWrites(Writes writer, TelemetryGenerator gen, PrintStream out) {
    this.writer = writer;
    this.gen = gen;
    this.out = out;
  }

  /**
   * The writer of the migration without dual writes: it writes telemetry_v1 only, and replication
   * carries each edit to the new tables.
   */
  static DemoDualWrites beginOldTableOnly(
      Connection conn, TelemetryGenerator gen, KeyLayout v1, PrintStream out) throws IOException {
    return begin(oldTableOnly(conn, v1), gen, out);
  }

  /** Starts {@code writer}'s dual writes with the first batch of new readings (flushed). */
  static DemoDualWrites begin(DualWriter writer, TelemetryGenerator gen, PrintStream out)
      throws IOException {
    return begin(dual(writer), gen, out);
  }

  private static DemoDualWrites begin(Writes writer, TelemetryGenerator gen, PrintStream out)
      throws IOException {
    DemoDualWrites d = new DemoDualWrites(writer, gen, out);
    for (long j = 0; j < FIRST_BATCH; j++) {
      d.writeNew(j);
    }
    d.writer.flush();
    return d;
  }

  /**
   * Keeps writing in a thread: first the updates of old readings, then new readings until {@link
   * #stop()}.
   */
  void keepWriting() {
    thread =
        new Thread(
            () -> {
              try {
                for (int k = 0; k < UPDATES; k++) {
                  TelemetryReading r = gen.reading(updatedIndex(k, gen.rows()));
                  writer.mutate(
                      Map.of("ts", r.ts(), "deviceId", r.deviceId()),
                      List.of(
                          Column.of(
                              LegacyTelemetryTable.FAMILY,
                              LegacyTelemetryTable.VALUE,
                              Bytes.toBytes(r.value() + UPDATE_DELTA))));
                  updated.incrementAndGet();
                }
                writer.flush();
                // a steady trickle, as a service would write: one reading per 10 ms until stopped
                for (long j = FIRST_BATCH; !stopping.await(10, TimeUnit.MILLISECONDS); j++) {
                  writeNew(j);
                  if (j % 50 == 0) {
                    writer.flush();
                  }
                }
                writer.flush();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (Exception e) {
                failure = e;
              }
            },
            "demo-dual-writer");
    thread.setDaemon(true);
    thread.start();
    out.println(
        "  writer thread running: updating " + UPDATES + " old readings, then writing new ones");
  }

  private void writeNew(long j) throws IOException {
    TelemetryReading r = newReading(j);
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
    written.incrementAndGet();
  }

  /**
   * Stops the thread and flushes: every write so far is on both tables, or this throws naming the
   * rows.
   */
  void stop() throws Exception {
    stopping.countDown();
    if (thread != null) {
      thread.join();
    }
    writer.flush();
    if (failure != null) {
      throw failure;
    }
    out.printf(
        "  dual writer stopped: %,d new readings and %,d updates written to %s (flushed)%n",
        written.get(), updated.get(), writer.tables());
  }

  @Override
  public void close() throws IOException {
    stopping.countDown();
    if (thread != null) {
      try {
        thread.join(30_000); // no write after the writer is closed
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    writer.close();
  }

  /** The tables the writer writes, for the output. */
  String tables() {
    return writer.tables();
  }

  /**
   * After {@link #stop()}: one more new reading, written and flushed last, so that its arrival in a
   * new table shows every earlier edit has arrived (replication ships a server's edits in order).
   */
  TelemetryReading writeLast() throws IOException {
    long j = written.get();
    writeNew(j);
    writer.flush();
    return newReading(j);
  }

  /** The j-th reading of the dual writer: inside the demo's day, from its own devices. */
  static TelemetryReading newReading(long j) {
    long ts = TelemetryGenerator.DEFAULT_START + (j * 7_919_000L + 500) % DAY;
    long value = j % 1000;
    return new TelemetryReading(ts, device((int) (j % DEVICES)), value, "ok");
  }

  /** The generator index of the k-th updated reading. */
  static long updatedIndex(int k, long rows) {
    return (k + 1) * rows / (UPDATES + 1);
  }

  static boolean isDualWriterDevice(byte[] id) {
    for (int d = 0; d < DEVICES; d++) {
      if (Arrays.equals(device(d), id)) {
        return true;
      }
    }
    return false;
  }

  private static byte[] device(int d) {
    UUID u = UUID.nameUUIDFromBytes(("dual-writer-device-" + d).getBytes(StandardCharsets.UTF_8));
    return Bytes.add(
        Bytes.toBytes(u.getMostSignificantBits()), Bytes.toBytes(u.getLeastSignificantBits()));
  }
}

package dev.rekey.demo;

import dev.rekey.client.DualWriter;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
 * {@link #stop()}. With {@code demo --writers replication} the same writer writes telemetry_v1 only
 * ({@link #beginOldTableOnly}), and the rekeying replication peer carries its edits.
 *
 * <p>New readings come from devices the generator never uses ({@link #isDualWriterDevice}); updates
 * add {@link #UPDATE_DELTA} to a reading's value, stamped by the writer (now, newer than the
 * snapshot's cell; by the RegionServer when the old table alone is written), so the backfill's
 * older copy of the same cell can never shadow them.
 */
final class DemoDualWrites implements AutoCloseable {
  static final int FIRST_BATCH = 100;
  static final int UPDATES = 10;
  static final long UPDATE_DELTA = 1_000_000;
  private static final int DEVICES = 4;
  private static final long DAY = 24L * 3600 * 1000;

  private final DemoWrites writer;
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

  /** The last new reading written (the one replication must deliver last). */
  private volatile TelemetryReading last;

  private DemoDualWrites(DemoWrites writer, TelemetryGenerator gen, PrintStream out) {
    this.writer = writer;
    this.gen = gen;
    this.out = out;
  }

  /** Opens the dual writer on both tables and writes the first batch of new readings (flushed). */
  static DemoDualWrites begin(
      Connection conn, TelemetryGenerator gen, KeyLayout v1, KeyLayout v2, PrintStream out)
      throws IOException {
    return begin(conn, conn, gen, v1, v2, out);
  }

  /** As above, telemetry_v2 on another cluster than telemetry_v1 ({@code newCluster}). */
  static DemoDualWrites begin(
      Connection conn,
      Connection newCluster,
      TelemetryGenerator gen,
      KeyLayout v1,
      KeyLayout v2,
      PrintStream out)
      throws IOException {
    return begin(
        DemoWrites.dual(
            DualWriter.builder(conn)
                .oldTable(DemoTables.TELEMETRY_V1, v1)
                .newTable(DemoTables.TELEMETRY_V2, v2, newCluster)
                .build()),
        gen,
        out);
  }

  /**
   * The writer of {@code demo --writers replication}: the same readings and updates, written to
   * telemetry_v1 only (the peer carries them to telemetry_v2).
   */
  static DemoDualWrites beginOldTableOnly(Connection conn, TelemetryGenerator gen, PrintStream out)
      throws IOException {
    return begin(DemoWrites.oldTableOnly(conn, DemoTables.TELEMETRY_V1), gen, out);
  }

  private static DemoDualWrites begin(DemoWrites writes, TelemetryGenerator gen, PrintStream out)
      throws IOException {
    DemoDualWrites d = new DemoDualWrites(writes, gen, out);
    for (long j = 0; j < FIRST_BATCH; j++) {
      d.writeNew(j);
    }
    d.writer.flush();
    return d;
  }

  /** Where this writer writes: "both tables", "telemetry_v1 only". */
  String where() {
    return writer.where();
  }

  /** The last new reading written so far. */
  TelemetryReading lastWritten() {
    return last;
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
                  writer.update(r, r.value() + UPDATE_DELTA);
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
    writer.write(r);
    last = r;
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
        "  writer stopped: %,d new readings and %,d updates written to %s (flushed)%n",
        written.get(), updated.get(), writer.where());
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

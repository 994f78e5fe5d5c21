package dev.rekey.cluster;

import dev.rekey.client.Column;
import dev.rekey.common.HBaseConfigs;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.dualwrite.KeyedCells;
import dev.rekey.dualwrite.SparkDualWrite;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * A Spark application that dual-writes {@link TelemetryGenerator} readings with {@link
 * SparkDualWrite}, submitted to the pseudo-distributed cluster's Spark by {@link ClientFaultsIT}.
 * The first attempt of partition 0 stops half-way, once its first record is in both tables (its
 * writes are on the servers, not only in its buffer), writes its executor's pid to {@code
 * <markers>/half-p0} and waits there to be killed; its retry writes the partition again. A fifth of
 * the records carry no timestamp (the job's one stamp). Test code: shipped in a jar of its own
 * ({@link dev.rekey.testing.TestJar}).
 *
 * <p>Arguments: client site, old table, old layout file, new table, new layout file, rows,
 * partitions, markers dir, then any further new tables as pairs of table and layout file (every
 * record goes to each). Prints {@code written=N}.
 */
public final class DualWriteApp {
  static final byte[] D = Bytes.toBytes("d");
  static final byte[] V = Bytes.toBytes("v");
  static final int DEVICES = 50;

  private DualWriteApp() {}

  public static void main(String[] args) throws Exception {
    String site = args[0];
    KeyLayout oldLayout = KeyLayout.load(Path.of(args[2]));
    KeyLayout newLayout = KeyLayout.load(Path.of(args[4]));
    long rows = Long.parseLong(args[5]);
    int partitions = Integer.parseInt(args[6]);
    Part part = new Part(site, args[1], oldLayout, rows, partitions, args[7]);
    SparkSession spark = SparkSession.builder().appName("rekey dual-write fault").getOrCreate();
    try {
      JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
      SparkDualWrite dual =
          SparkDualWrite.on(jsc, HBaseConfigs.load(Path.of(site)))
              .oldTable(args[1], oldLayout)
              .newTable(args[3], newLayout);
      for (int a = 8; a + 1 < args.length; a += 2) {
        dual.newTable(args[a], KeyLayout.load(Path.of(args[a + 1])));
      }
      long written =
          dual.writeBufferSize(4096) // a few dozen rows per send: the killed task has sent some
              .write(
                  jsc.parallelize(IntStream.range(0, partitions).boxed().toList(), partitions)
                      .flatMap(part::records));
      System.out.println("written=" + written);
    } finally {
      spark.stop();
    }
  }

  /** The record of reading {@code i}: event time as its timestamp, or none for every fifth. */
  static KeyedCells record(TelemetryReading r, long i) {
    Column c =
        i % 5 == 0
            ? Column.of(D, V, Bytes.toBytes(r.value()))
            : Column.at(D, V, r.ts(), Bytes.toBytes(r.value()));
    return KeyedCells.of(Map.of("ts", r.ts(), "deviceId", r.deviceId()), List.of(c));
  }

  /** What a task needs to make its partition's records. */
  record Part(
      String site, String oldTable, KeyLayout oldLayout, long rows, int partitions, String markers)
      implements Serializable {
    Iterator<KeyedCells> records(int p) {
      return new Records(this, p);
    }
  }

  /** Partition {@code p}'s readings, in order; the first attempt of partition 0 stops half-way. */
  static final class Records implements Iterator<KeyedCells> {
    private final Part part;
    private final TelemetryGenerator gen;
    private final long from;
    private final long to;
    private final boolean stopHalfway;
    private long next;

    Records(Part part, int p) {
      this.part = part;
      this.gen = TelemetryGenerator.oneDay(part.rows(), DEVICES);
      this.from = part.rows() * p / part.partitions();
      this.to = part.rows() * (p + 1) / part.partitions();
      this.next = from;
      this.stopHalfway = p == 0 && TaskContext.get().attemptNumber() == 0;
    }

    @Override
    public boolean hasNext() {
      return next < to;
    }

    @Override
    public KeyedCells next() {
      if (next >= to) {
        throw new NoSuchElementException();
      }
      if (stopHalfway && next == from + (to - from) / 2) {
        waitToBeKilled();
      }
      long i = next++;
      return record(gen.reading(i), i);
    }

    /** Once the partition's first record is on the server, names this JVM and waits. */
    private void waitToBeKilled() {
      TelemetryReading first = gen.reading(from);
      byte[] key = part.oldLayout().encode(Map.of("ts", first.ts(), "deviceId", first.deviceId()));
      try (Connection conn =
              ConnectionFactory.createConnection(HBaseConfigs.load(Path.of(part.site())));
          Table t = conn.getTable(TableName.valueOf(part.oldTable()))) {
        dev.rekey.common.Poll.until(
            () -> t.exists(new Get(key)),
            java.time.Duration.ofMinutes(2),
            java.time.Duration.ofMillis(100),
            () -> new IllegalStateException("the partition's first row never reached the table"));
        Path marker = Path.of(part.markers()).resolve("half-p0");
        Files.createDirectories(marker.getParent());
        Files.writeString(marker, Long.toString(ProcessHandle.current().pid()));
        Thread.sleep(TimeUnit.MINUTES.toMillis(5)); // the test kills this JVM meanwhile
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}

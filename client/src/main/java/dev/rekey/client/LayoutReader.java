package dev.rekey.client;

import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;

/**
 * Reads one table through its layout, in natural-key terms: the caller gives field values, never a
 * salt or a hash prefix. {@link #get} is one RPC, as on an unsalted table; {@link #scan}/{@link
 * #open} run one scan per bucket in parallel and merge them into natural key order (see {@link
 * dev.rekey.rowkey.KeyRangePlanner} for what each layout shape can serve). Thread-safe; share one
 * per table. The connection stays the caller's; {@link #close()} stops the reader's pool.
 *
 * <pre>{@code
 * try (LayoutReader v2 = LayoutReader.open(conn, TableName.valueOf("telemetry_v2"), layout)) {
 *   Optional<Result> row = v2.get(Map.of("ts", ts, "deviceId", id));
 *   List<Result> hour = v2.scan(ReadQuery.builder().window(from, from + 3_600_000).limit(500).build());
 * }
 * }</pre>
 */
public final class LayoutReader implements AutoCloseable {
  /**
   * Bucket scans opened at once: enough for a 16-bucket layout in one round trip, bounded for N =
   * 256.
   */
  public static final int DEFAULT_PARALLELISM = 16;

  private final Connection conn;
  private final TableName table;
  private final KeyLayout layout;
  private final ExecutorService pool;

  private LayoutReader(Connection conn, TableName table, KeyLayout layout, int parallelism) {
    this.conn = conn;
    this.table = table;
    this.layout = layout;
    AtomicInteger seq = new AtomicInteger();
    ThreadPoolExecutor p =
        new ThreadPoolExecutor(
            parallelism,
            parallelism,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t =
                  new Thread(
                      r, "rekey-reader-" + table.getNameAsString() + "-" + seq.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    p.allowCoreThreadTimeOut(true);
    this.pool = p;
  }

  public static LayoutReader open(Connection conn, TableName table, KeyLayout layout) {
    return open(conn, table, layout, DEFAULT_PARALLELISM);
  }

  /**
   * @param parallelism bucket scans opened concurrently (a bounded pool; later buckets wait for a
   *     thread)
   */
  public static LayoutReader open(
      Connection conn, TableName table, KeyLayout layout, int parallelism) {
    if (parallelism < 1) {
      throw new IllegalArgumentException(
          "Cannot open a reader with parallelism " + parallelism + ": give 1 or more");
    }
    return new LayoutReader(conn, table, layout, parallelism);
  }

  public TableName table() {
    return table;
  }

  public KeyLayout layout() {
    return layout;
  }

  /**
   * The row key of a natural key (salt or hash prefix computed); KeyEncodeException names a bad
   * field.
   */
  public byte[] rowKey(Map<String, ?> fields) {
    @SuppressWarnings("unchecked")
    Map<String, Object> f = (Map<String, Object>) fields;
    return layout.encode(f);
  }

  /** The row of a natural key: every field of the layout given, its prefix computed here. */
  public Optional<Result> get(Map<String, ?> fields) throws IOException {
    byte[] key = rowKey(fields);
    try (Table t = conn.getTable(table)) {
      Result r = t.get(new Get(key));
      return r.isEmpty() ? Optional.empty() : Optional.of(r);
    }
  }

  /** How this layout serves the query: the bucket ranges, or why it cannot. */
  public ScanPlan plan(ReadQuery query) {
    return ScanPlan.of(layout, query);
  }

  /**
   * Streams the query's rows in natural order (descending if asked). Refused queries throw {@link
   * UnsupportedReadException}; a failed bucket throws {@link BucketReadException}, now or from
   * {@code next()}.
   */
  public MergedScan open(ReadQuery query) {
    ScanPlan plan = plan(query);
    if (!plan.servable()) {
      throw new UnsupportedReadException(plan.refusal());
    }
    return MergedScan.open(conn, table, plan, pool);
  }

  /** The query's rows as a list: complete, or an exception (never a partial list). */
  public List<Result> scan(ReadQuery query) {
    return open(query).toList();
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}

package dev.rekey.dualwrite;

import dev.rekey.client.DualWriter;
import dev.rekey.common.HBaseConfigs;
import dev.rekey.rowkey.KeyLayout;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.spark.JavaHBaseContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * The dual write for writers that are Spark jobs: every record of an RDD goes to the old table
 * under the old key and to each new table under its own key ({@code .newTable(t2, l2).newTable(t3,
 * l3)}), through hbase-spark's {@code HBaseContext} (one HBase connection per executor, the
 * configuration broadcast) and, inside each partition, the client module's {@link DualWriter}.
 *
 * <p>One pass over the data, not one {@code bulkPut} per table: a pass per table would compute the
 * RDD again, and a recomputed record could differ (a clock, a random id) between the tables. Cells
 * given without a timestamp are stamped with one reading of the driver's clock for the whole job,
 * so every copy and any retried task carry the same timestamps, and a retry rewrites identical
 * cells. A partition whose writes fail on any table fails its task (the {@code DualWriteException}
 * names the table and rows); Spark retries it.
 *
 * <p>A new table on another cluster ({@code .newTable(t2, l2, newClusterConf)}) is written through
 * a connection to that cluster each partition opens and closes.
 */
public final class SparkDualWrite {
  private final JavaSparkContext jsc;
  private final Configuration conf;
  private String oldTable;
  private KeyLayout oldLayout;
  private final List<NewTable> newTables = new ArrayList<>();
  private boolean skipWal;
  private long writeBufferSize = -1;

  private SparkDualWrite(JavaSparkContext jsc, Configuration conf) {
    this.jsc = jsc;
    this.conf = conf;
  }

  public static SparkDualWrite on(JavaSparkContext jsc, Configuration hbaseConf) {
    return new SparkDualWrite(jsc, hbaseConf);
  }

  public SparkDualWrite oldTable(String table, KeyLayout layout) {
    this.oldTable = table;
    this.oldLayout = layout;
    return this;
  }

  /** A new table, its layout, and its cluster's configuration (null: the old table's cluster). */
  private record NewTable(String table, KeyLayout layout, Map<String, String> cluster)
      implements Serializable {}

  /** Adds a new table written under its own layout; call once per new table. */
  public SparkDualWrite newTable(String table, KeyLayout layout) {
    return add(new NewTable(table, layout, null));
  }

  /**
   * Adds a new table on another cluster than the old table's, reached with {@code otherCluster}
   * (that cluster's HBase client configuration).
   */
  public SparkDualWrite newTable(String table, KeyLayout layout, Configuration otherCluster) {
    return add(new NewTable(table, layout, HBaseConfigs.toMap(otherCluster)));
  }

  private SparkDualWrite add(NewTable t) {
    if (newTables.stream()
        .anyMatch(n -> n.table().equals(t.table()) && Objects.equals(n.cluster(), t.cluster()))) {
      throw new IllegalArgumentException(
          "Cannot dual-write " + t.table() + " twice: each table is given once");
    }
    newTables.add(t);
    return this;
  }

  /** Opt out of the WAL on every table. */
  public SparkDualWrite skipWal() {
    this.skipWal = true;
    return this;
  }

  /**
   * Bytes each task buffers per table before it sends them ({@link
   * DualWriter.Builder#writeBufferSize}; default the DualWriter's): smaller sends sooner, so a task
   * that dies has written more of its rows, which its retry then writes again, identically.
   */
  public SparkDualWrite writeBufferSize(long bytes) {
    this.writeBufferSize = bytes;
    return this;
  }

  /**
   * Writes every record to every table; returns the records written (each to every table), after
   * the job succeeded.
   */
  public long write(JavaRDD<KeyedCells> records) {
    if (oldTable == null || newTables.isEmpty()) {
      throw new IllegalStateException(
          "Cannot dual-write: give oldTable(...) and at least one newTable(...)");
    }
    long stamp = System.currentTimeMillis();
    LongAccumulator written = jsc.sc().longAccumulator("rekey dual-written records");
    String ot = oldTable;
    KeyLayout ol = oldLayout;
    List<NewTable> nts = List.copyOf(newTables);
    boolean noWal = skipWal;
    long buffer = writeBufferSize;
    new JavaHBaseContext(jsc, conf)
        .foreachPartition(
            records,
            (Tuple2<Iterator<KeyedCells>, Connection> part) -> {
              DualWriter.Builder b =
                  DualWriter.builder(part._2())
                      .oldTable(TableName.valueOf(ot), ol)
                      .clock(() -> stamp);
              List<Connection> others = new ArrayList<>();
              long n = 0;
              try {
                for (NewTable t : nts) {
                  Connection c = part._2();
                  if (t.cluster() != null) {
                    c = ConnectionFactory.createConnection(HBaseConfigs.fromMap(t.cluster()));
                    others.add(c);
                  }
                  b.newTable(TableName.valueOf(t.table()), t.layout(), c);
                }
                if (noWal) {
                  b.skipWal();
                }
                if (buffer > 0) {
                  b.writeBufferSize(buffer);
                }
                try (DualWriter w = b.build()) {
                  Iterator<KeyedCells> it = part._1();
                  while (it.hasNext()) {
                    KeyedCells r = it.next();
                    w.mutate(r.fields(), r.cells());
                    n++;
                  }
                } // close() flushes every table and throws, naming the table and rows, if any
                // failed
              } finally {
                for (Connection c : others) {
                  c.close();
                }
              }
              written.add(n);
            });
    return written.value();
  }
}

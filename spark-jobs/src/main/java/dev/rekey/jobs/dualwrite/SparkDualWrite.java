package dev.rekey.jobs.dualwrite;

import dev.rekey.client.DualWriter;
import dev.rekey.rowkey.KeyLayout;
import java.util.Iterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.spark.JavaHBaseContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * The dual write for writers that are Spark jobs: every record of an RDD goes to the old table
 * under the old key and to the new table under the new key, through hbase-spark's {@code
 * HBaseContext} (one HBase connection per executor, the configuration broadcast) and, inside each
 * partition, the client module's {@link DualWriter}.
 *
 * <p>One pass over the data, not one {@code bulkPut} per table: two passes would compute the RDD
 * twice, and a recomputed record could differ (a clock, a random id) between the tables. Cells
 * given without a timestamp are stamped with one reading of the driver's clock for the whole job,
 * so both copies and any retried task carry the same timestamps, and a retry rewrites identical
 * cells. A partition whose writes fail on either table fails its task (the {@code
 * DualWriteException} names the rows); Spark retries it.
 */
public final class SparkDualWrite {
  private final JavaSparkContext jsc;
  private final Configuration conf;
  private String oldTable;
  private KeyLayout oldLayout;
  private String newTable;
  private KeyLayout newLayout;
  private boolean skipWal;

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

  public SparkDualWrite newTable(String table, KeyLayout layout) {
    this.newTable = table;
    this.newLayout = layout;
    return this;
  }

  /** Opt out of the WAL on both tables. */
  public SparkDualWrite skipWal() {
    this.skipWal = true;
    return this;
  }

  /**
   * Writes every record to both tables; returns the records written (each to both), after the job
   * succeeded.
   */
  public long write(JavaRDD<KeyedCells> records) {
    if (oldTable == null || newTable == null) {
      throw new IllegalStateException("Cannot dual-write: give oldTable(...) and newTable(...)");
    }
    long stamp = System.currentTimeMillis();
    LongAccumulator written = jsc.sc().longAccumulator("rekey dual-written records");
    String ot = oldTable;
    String nt = newTable;
    KeyLayout ol = oldLayout;
    KeyLayout nl = newLayout;
    boolean noWal = skipWal;
    new JavaHBaseContext(jsc, conf)
        .foreachPartition(
            records,
            (Tuple2<Iterator<KeyedCells>, Connection> part) -> {
              DualWriter.Builder b =
                  DualWriter.builder(part._2())
                      .oldTable(TableName.valueOf(ot), ol)
                      .newTable(TableName.valueOf(nt), nl)
                      .clock(() -> stamp);
              if (noWal) {
                b.skipWal();
              }
              long n = 0;
              try (DualWriter w = b.build()) {
                Iterator<KeyedCells> it = part._1();
                while (it.hasNext()) {
                  KeyedCells r = it.next();
                  w.mutate(r.fields(), r.cells());
                  n++;
                }
              } // close() flushes both tables and throws, naming the rows, if either failed any
              written.add(n);
            });
    return written.value();
  }
}

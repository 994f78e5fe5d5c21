package dev.rekey.jobs.backfill;

import dev.rekey.rowkey.Hex;
import java.time.Instant;
import java.util.Arrays;
import java.util.Iterator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.spark.util.CollectionAccumulator;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * The write side of one partition (packed rows sorted by target key, cells within a row in HBase
 * order): counts rows, cells and bytes per target region and rows per hour of the key's time field,
 * detects collisions (one target row from two source rows), and hands the cells to
 * HFileOutputFormat2. Runs in the save action's result stage (accumulators merged once per
 * partition).
 */
final class WriteCells implements Iterator<Tuple2<ImmutableBytesWritable, KeyValue>> {
  private static final int MAX_EXAMPLES_PER_TASK = 3;

  private final Iterator<Tuple2<byte[], byte[]>> in;
  private final int region;
  private final KeyedCounts counts;
  private final LongAccumulator collisions;
  private final CollectionAccumulator<String> examples;
  private byte[] row;
  private byte[] rowSource;
  private KeyValue[] cellsOfRow;
  private int i;
  private int examplesAdded;
  private long rows;
  private long cells;
  private long bytes;
  private boolean flushed;

  /** Rows per hour (epoch millis) of this partition, handed to the accumulator once at the end. */
  private final java.util.HashMap<Long, Long> rowsPerHour = new java.util.HashMap<>();

  WriteCells(
      Iterator<Tuple2<byte[], byte[]>> in,
      int region,
      KeyedCounts counts,
      LongAccumulator collisions,
      CollectionAccumulator<String> examples) {
    this.in = in;
    this.region = region;
    this.counts = counts;
    this.collisions = collisions;
    this.examples = examples;
  }

  @Override
  public boolean hasNext() {
    while ((cellsOfRow == null || i >= cellsOfRow.length) && in.hasNext()) {
      nextRow(in.next());
    }
    boolean has = cellsOfRow != null && i < cellsOfRow.length;
    if (!has && !flushed) {
      flushed = true;
      counts.add("rows." + region, rows);
      counts.add("cells." + region, cells);
      counts.add("bytes." + region, bytes);
      rowsPerHour.forEach((hour, n) -> counts.add("hour." + Instant.ofEpochMilli(hour), n));
    }
    return has;
  }

  /**
   * Takes the next packed row: counts it, or, if it repeats the previous target key, records a
   * collision.
   */
  private void nextRow(Tuple2<byte[], byte[]> t) {
    byte[] src = PackedRow.sourceKey(t._2());
    if (row != null && Arrays.equals(row, t._1())) {
      if (Arrays.equals(rowSource, src)) {
        // the shared reader merges a row's partial Results; a row in two pieces here would be a
        // reader bug
        throw new IllegalStateException(
            "source row " + Hex.of(src) + " arrived in more than one piece");
      } else {
        collisions.add(1);
        if (examplesAdded++ < MAX_EXAMPLES_PER_TASK) {
          examples.add(
              "target key "
                  + Hex.of(row)
                  + " <- source keys "
                  + Hex.of(rowSource)
                  + " and "
                  + Hex.of(src));
        }
      }
      // never interleave a second row's cells (the HFile would be out of order); the backfill fails
      // anyway
      cellsOfRow = null;
      return;
    }
    row = t._1();
    rowSource = src;
    cellsOfRow = PackedRow.cells(t._2());
    i = 0;
    rows++;
    countHour(PackedRow.time(t._2()));
  }

  @Override
  public Tuple2<ImmutableBytesWritable, KeyValue> next() {
    if (!hasNext()) {
      throw new java.util.NoSuchElementException();
    }
    KeyValue kv = cellsOfRow[i++];
    cells++;
    bytes += kv.getLength();
    return new Tuple2<>(new ImmutableBytesWritable(row), kv);
  }

  /**
   * The time travels with the row (taken when the key was built): no second decode of the key per
   * row.
   */
  private void countHour(long time) {
    if (time != Rekeyer.NO_TIME) {
      rowsPerHour.merge(Math.floorDiv(time, 3_600_000L) * 3_600_000L, 1L, Long::sum);
    }
  }
}

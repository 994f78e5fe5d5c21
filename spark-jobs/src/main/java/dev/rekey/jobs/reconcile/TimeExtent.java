package dev.rekey.jobs.reconcile;

import dev.rekey.jobs.common.RowDecoder;
import dev.rekey.jobs.common.TimeWindow;
import dev.rekey.rowkey.KeyLayout;
import java.io.Serializable;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Result;
import org.apache.spark.api.java.JavaRDD;

/**
 * The earliest and latest row time on one side, for a reconcile run given no --from/--to. A row's
 * time is found as the tally pass finds it (the key field, or the newest cell); rows that do not
 * decode or have no cells are left out here, the tally pass reports them.
 *
 * @param min earliest row time (epoch millis), Long.MAX_VALUE when no row was seen
 * @param max latest row time, Long.MIN_VALUE when no row was seen
 * @param rows rows that had a time
 */
public record TimeExtent(long min, long max, long rows) implements Serializable {
  public static final TimeExtent NONE = new TimeExtent(Long.MAX_VALUE, Long.MIN_VALUE, 0);

  public TimeExtent plus(long t) {
    return new TimeExtent(Math.min(min, t), Math.max(max, t), rows + 1);
  }

  public TimeExtent merge(TimeExtent o) {
    return new TimeExtent(Math.min(min, o.min), Math.max(max, o.max), rows + o.rows);
  }

  public boolean isEmpty() {
    return rows == 0;
  }

  /**
   * Whole buckets of {@code size} millis (aligned to the epoch: 1h buckets start on the hour)
   * covering the extent.
   */
  public Buckets buckets(long size) {
    long from = Math.floorDiv(min, size) * size;
    long to = (Math.floorDiv(max, size) + 1) * size;
    return new Buckets(new TimeWindow(from, to), size);
  }

  /** The extent of the rows of one side, in one pass over it (keys only is enough for key time). */
  public static TimeExtent of(JavaRDD<Result> rows, KeyLayout layout, TimeSource time) {
    RowDecoder decoder = new RowDecoder(layout);
    int timeIndex = time.cell() ? -1 : layout.fieldIndex(time.field());
    return rows.mapPartitions(
            it -> {
              TimeExtent e = NONE;
              while (it.hasNext()) {
                Result r = it.next();
                Cell[] cells = r.rawCells();
                if (cells == null || cells.length == 0) {
                  continue;
                }
                long t;
                if (timeIndex < 0) {
                  t = Long.MIN_VALUE;
                  for (Cell c : cells) {
                    t = Math.max(t, c.getTimestamp());
                  }
                } else {
                  try {
                    t = ((Number) decoder.decode(r.getRow(), null).field(timeIndex)).longValue();
                  } catch (IllegalArgumentException undecodable) {
                    continue;
                  }
                }
                e = e.plus(t);
              }
              return List.of(e).iterator();
            })
        .fold(NONE, TimeExtent::merge);
  }
}

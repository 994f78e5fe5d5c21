package dev.rekey.jobs.reconcile;

import dev.rekey.common.RowDecoder;
import dev.rekey.common.TimeWindow;
import dev.rekey.read.PartitionFold;
import dev.rekey.read.RegionRead;
import dev.rekey.rowkey.KeyLayout;
import java.io.Serializable;
import java.util.List;
import org.apache.hadoop.hbase.Cell;

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
  public TimeBuckets buckets(long size) {
    long from = Math.floorDiv(min, size) * size;
    long to = (Math.floorDiv(max, size) + 1) * size;
    return new TimeBuckets(new TimeWindow(from, to), size);
  }

  /**
   * The extent of the rows of one side, in one pass over it, its rows streamed as cells (keys only
   * is enough for key time).
   */
  public static TimeExtent of(RegionRead read, KeyLayout layout, TimeSource time) {
    RowDecoder decoder = new RowDecoder(layout);
    int timeIndex = time.cell() ? -1 : layout.fieldIndex(time.field());
    return read.fold(
            partition ->
                new PartitionFold.Sink<TimeExtent>() {
                  private TimeExtent e = NONE;
                  private long t; // the row's time so far
                  private boolean undecodable;

                  @Override
                  public void startRow(byte[] key) {
                    t = Long.MIN_VALUE;
                    undecodable = false;
                    if (timeIndex >= 0) {
                      try {
                        t = ((Number) decoder.decode(key, List.of()).field(timeIndex)).longValue();
                      } catch (IllegalArgumentException notDecoded) {
                        undecodable = true;
                      }
                    }
                  }

                  @Override
                  public void cell(Cell c) {
                    if (timeIndex < 0) {
                      t = Math.max(t, c.getTimestamp());
                    }
                  }

                  @Override
                  public void endRow() {
                    if (!undecodable) {
                      e = e.plus(t);
                    }
                  }

                  @Override
                  public void dropRow() {
                    // the row starts again: startRow resets it
                  }

                  @Override
                  public TimeExtent result() {
                    return e;
                  }
                })
        .fold(NONE, TimeExtent::merge);
  }
}

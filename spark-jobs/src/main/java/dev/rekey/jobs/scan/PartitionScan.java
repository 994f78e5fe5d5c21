package dev.rekey.jobs.scan;

import dev.rekey.jobs.common.DecodedCell;
import dev.rekey.jobs.common.RowDecoder;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyDecodeException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Result;
import org.apache.spark.api.java.function.Function2;

/**
 * The per-partition step: check each row key decodes with the layout, count, sample undecodable
 * keys, pack the rows into blocks of {@link RowBlock#ROWS} when reports will read them, and emit
 * the partition's {@link RegionStats} as the last element. Lazy: rows stream through, one block at
 * a time.
 */
final class PartitionScan implements Function2<Integer, Iterator<Result>, Iterator<ScanRecord>> {
  private static final long serialVersionUID = 1L;
  private final RowDecoder decoder;
  private final int samples;
  private final boolean keepRows;

  /**
   * @param keepRows pack the rows for the reports; without reports only the stats are emitted
   */
  PartitionScan(RowDecoder decoder, int samples, boolean keepRows) {
    this.decoder = decoder;
    this.samples = samples;
    this.keepRows = keepRows;
  }

  @Override
  public Iterator<ScanRecord> call(Integer partition, Iterator<Result> results) {
    return new Iterator<>() {
      private final long t0 = System.nanoTime();
      private long rows;
      private long cells;
      private long bytes;
      private long undecodable;
      private final List<String> sampled = new ArrayList<>();
      private ScanRecord next;
      private String firstKey;
      private boolean statsEmitted;
      private final RowBlock.Builder block = new RowBlock.Builder();

      @Override
      public boolean hasNext() {
        if (next != null) {
          return true;
        }
        while (results.hasNext()) {
          Result r = results.next();
          if (firstKey == null) {
            firstKey = Hex.of(r.getRow());
          }
          try {
            byte[] key = r.getRow();
            decoder.check(key); // checked only: the views decode it from the packed cells
            Cell[] raw = r.rawCells();
            rows++;
            cells += raw.length;
            bytes += key.length;
            for (Cell c : raw) {
              bytes += DecodedCell.byteSize(c);
            }
            if (!keepRows) {
              continue;
            }
            block.add(raw);
            if (block.isFull()) {
              next = new ScanRecord(partition, block.build(), null);
              return true;
            }
          } catch (KeyDecodeException e) {
            undecodable++;
            if (sampled.size() < samples) {
              sampled.add(Hex.of(r.getRow()) + ": " + e.reason());
            }
          }
        }
        if (!block.isEmpty()) {
          next = new ScanRecord(partition, block.build(), null);
          return true;
        }
        if (!statsEmitted) {
          statsEmitted = true;
          long ms = (System.nanoTime() - t0) / 1_000_000;
          next =
              new ScanRecord(
                  partition,
                  null,
                  new RegionStats(
                      partition,
                      firstKey == null ? "" : firstKey,
                      rows,
                      cells,
                      bytes,
                      ms,
                      undecodable,
                      List.copyOf(sampled)));
          return true;
        }
        return false;
      }

      @Override
      public ScanRecord next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        ScanRecord r = next;
        next = null;
        return r;
      }
    };
  }
}

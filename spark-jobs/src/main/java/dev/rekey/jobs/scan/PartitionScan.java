package dev.rekey.jobs.scan;

import dev.rekey.jobs.common.RowDecoder;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Result;
import org.apache.spark.api.java.function.Function2;

/**
 * The per-partition step of a scan with reports: tally each row ({@link ScanTally}: key checked
 * with the layout, counts, undecodable keys sampled), pack the rows that decode into blocks of
 * {@link RowBlock#ROWS} for the report views, and emit the partition's {@link RegionStats} as the
 * last element. Lazy: rows stream through, one block at a time. A scan without reports folds the
 * rows into the tally alone ({@link ScanTally#fold}).
 */
final class PartitionScan implements Function2<Integer, Iterator<Result>, Iterator<ScanRecord>> {
  private static final long serialVersionUID = 1L;
  private final RowDecoder decoder;
  private final int samples;

  PartitionScan(RowDecoder decoder, int samples) {
    this.decoder = decoder;
    this.samples = samples;
  }

  @Override
  public Iterator<ScanRecord> call(Integer partition, Iterator<Result> results) {
    return new Iterator<>() {
      private final ScanTally tally = new ScanTally(partition, decoder, samples);
      private ScanRecord next;
      private boolean statsEmitted;
      private final RowBlock.Builder block = new RowBlock.Builder();

      @Override
      public boolean hasNext() {
        if (next != null) {
          return true;
        }
        while (results.hasNext()) {
          Result r = results.next();
          Cell[] raw = r.rawCells();
          tally.startRow(r.getRow());
          for (Cell c : raw) {
            tally.cell(c);
          }
          tally.endRow();
          if (!tally.rowDecodes()) {
            continue;
          }
          block.add(raw);
          if (block.isFull()) {
            next = new ScanRecord(partition, block.build(), null);
            return true;
          }
        }
        if (!block.isEmpty()) {
          next = new ScanRecord(partition, block.build(), null);
          return true;
        }
        if (!statsEmitted) {
          statsEmitted = true;
          next = new ScanRecord(partition, null, tally.result());
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

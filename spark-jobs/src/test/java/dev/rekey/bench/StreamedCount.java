package dev.rekey.bench;

import dev.rekey.read.PartitionFold;
import dev.rekey.read.RegionRead;
import org.apache.hadoop.hbase.Cell;

/**
 * The read pass of the backfill's in-order path without its write: each partition's rows streamed
 * as cells ({@link RegionRead#fold}) and counted, nothing kept.
 */
final class StreamedCount implements PartitionFold<Long> {
  private static final long serialVersionUID = 1L;

  /** Rows of the whole read. */
  static long rows(RegionRead read) {
    return read.fold(new StreamedCount()).reduce(Long::sum);
  }

  @Override
  public Sink<Long> open(int partition) {
    return new Sink<>() {
      private long rows;

      @Override
      public void startRow(byte[] key) {}

      @Override
      public void cell(Cell c) {}

      @Override
      public void endRow() {
        rows++;
      }

      @Override
      public void dropRow() {}

      @Override
      public Long result() {
        return rows;
      }
    };
  }
}

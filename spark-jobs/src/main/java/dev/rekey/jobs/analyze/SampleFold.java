package dev.rekey.jobs.analyze;

import dev.rekey.read.PartitionFold;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;

/**
 * A partition's {@link PartitionSample}, its rows streamed in as cells ({@code RegionRead.fold}):
 * each row's key and newest cell time, counted against the region it falls in and offered to the
 * reservoir; no row built or kept.
 */
final class SampleFold implements PartitionFold<PartitionSample> {
  private static final long serialVersionUID = 1L;
  private final ArrayList<byte[]> starts;
  private final int capacity;

  /**
   * @param starts the regions' start keys, in key order
   * @param capacity the most keys a partition's reservoir holds
   */
  SampleFold(List<byte[]> starts, int capacity) {
    this.starts = new ArrayList<>(starts);
    this.capacity = capacity;
  }

  @Override
  public Sink<PartitionSample> open(int partition) {
    PartitionSample sample = new PartitionSample(starts.size(), capacity, 0x5eedL + partition);
    return new Sink<>() {
      private byte[] key;
      private long newest;

      @Override
      public void startRow(byte[] k) {
        key = k;
        newest = Long.MIN_VALUE;
      }

      @Override
      public void cell(Cell c) {
        newest = Math.max(newest, c.getTimestamp());
      }

      @Override
      public void endRow() {
        // the key is the stream's until the next row: the reservoir keeps a copy
        byte[] k = key.clone();
        sample.add(new KeySample(k, newest), KeyStats.regionOf(starts, k));
      }

      @Override
      public void dropRow() {
        // the row starts again: startRow resets it
      }

      @Override
      public PartitionSample result() {
        return sample;
      }
    };
  }
}

package dev.rekey.jobs.reconcile;

import dev.rekey.read.PartitionFold;
import org.apache.hadoop.hbase.Cell;

/**
 * A side's per-partition {@link SideTally}, its rows streamed in as cells ({@code
 * RegionRead.fold}): each row classified as it passes (key decoded, cells counted, timed and
 * digested), no row built or kept. A dropped row (streamed again from its start) is not tallied.
 */
public final class SideFold implements PartitionFold<SideTally> {
  private static final long serialVersionUID = 1L;
  private final RowClassifier classifier;
  private final int buckets;

  public SideFold(RowClassifier classifier, int buckets) {
    this.classifier = classifier;
    this.buckets = buckets;
  }

  @Override
  public Sink<SideTally> open(int partition) {
    SideTally tally = new SideTally(buckets);
    RowClassifier.StreamedRow row = classifier.streamed();
    return new Sink<>() {
      @Override
      public void startRow(byte[] key) {
        row.start(key);
      }

      @Override
      public void cell(Cell c) {
        row.cell(c);
      }

      @Override
      public void endRow() {
        tally.add(row.finish());
      }

      @Override
      public void dropRow() {
        // the row starts again: start() resets it
      }

      @Override
      public SideTally result() {
        return tally;
      }
    };
  }
}

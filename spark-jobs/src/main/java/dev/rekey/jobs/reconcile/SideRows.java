package dev.rekey.jobs.reconcile;

import dev.rekey.read.PartitionMap;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.Cell;

/**
 * A side's rows as {@link RowRecord}s, streamed in as cells ({@code RegionRead.map}) and classified
 * as they pass; only those {@code keep} accepts are handed on (a drill-down's mismatched buckets,
 * an undecodable key), each with its own copy of the row key.
 */
final class SideRows implements PartitionMap<RowRecord> {
  private static final long serialVersionUID = 1L;
  private final RowClassifier classifier;
  private final Keep keep;

  /** Which records to hand on. */
  interface Keep extends java.io.Serializable {
    boolean test(RowRecord r);
  }

  SideRows(RowClassifier classifier, Keep keep) {
    this.classifier = classifier;
    this.keep = keep;
  }

  @Override
  public Sink open(int partition, Consumer<RowRecord> out) {
    RowClassifier.StreamedRow row = classifier.streamed();
    return new Sink() {
      @Override
      public void startRow(byte[] k) {
        row.start(k);
      }

      @Override
      public void cell(Cell c) {
        row.cell(c);
      }

      @Override
      public void endRow() {
        RowRecord r = row.finish();
        if (keep.test(r)) {
          // the reader reuses the key's array: the record keeps a copy
          out.accept(
              new RowRecord(
                  r.rowKey().clone(),
                  r.naturalKey(),
                  r.bucket(),
                  r.time(),
                  r.cells(),
                  r.digest(),
                  r.reason()));
        }
      }

      @Override
      public void dropRow() {
        // the row starts again: start() resets it
      }

      @Override
      public void finish() {}
    };
  }
}

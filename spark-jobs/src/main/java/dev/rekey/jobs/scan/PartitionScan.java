package dev.rekey.jobs.scan;

import dev.rekey.common.RowDecoder;
import dev.rekey.read.PartitionMap;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.Cell;

/**
 * The per-partition step of a scan with reports, on the rows streamed as cells ({@link
 * dev.rekey.read.RegionRead#map}): tally each row ({@link ScanTally}: key checked with the layout,
 * counts, undecodable keys sampled), pack the cells of the rows that decode into blocks of {@link
 * RowBlock#ROWS} for the report views as they pass (no {@code Result} per row), and hand on the
 * partition's {@link RegionStats} as the last record. A scan without reports folds the rows into
 * the tally alone ({@link ScanTally#fold}).
 */
final class PartitionScan implements PartitionMap<ScanRecord> {
  private static final long serialVersionUID = 1L;
  private final RowDecoder decoder;
  private final int samples;

  PartitionScan(RowDecoder decoder, int samples) {
    this.decoder = decoder;
    this.samples = samples;
  }

  @Override
  public Sink open(int partition, Consumer<ScanRecord> out) {
    return new Sink() {
      private final ScanTally tally = new ScanTally(partition, decoder, samples);
      private final RowBlock.Builder block = new RowBlock.Builder();
      private boolean kept; // the current row decodes: its cells go into the block

      @Override
      public void startRow(byte[] key) {
        tally.startRow(key);
        kept = tally.rowDecodes();
        if (kept) {
          block.startRow(key);
        }
      }

      @Override
      public void cell(Cell c) {
        tally.cell(c);
        if (kept) {
          block.cell(c);
        }
      }

      @Override
      public void endRow() {
        tally.endRow();
        if (kept) {
          block.endRow();
          if (block.isFull()) {
            out.accept(new ScanRecord(partition, block.build(), null));
          }
        }
      }

      @Override
      public void dropRow() {
        tally.dropRow();
        if (kept) {
          block.dropRow();
        }
      }

      @Override
      public void finish() {
        if (!block.isEmpty()) {
          out.accept(new ScanRecord(partition, block.build(), null));
        }
        out.accept(new ScanRecord(partition, null, tally.result()));
      }
    };
  }
}

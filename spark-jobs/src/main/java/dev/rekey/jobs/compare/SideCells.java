package dev.rekey.jobs.compare;

import dev.rekey.common.DecodedCell;
import dev.rekey.read.PartitionMap;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.Cell;

/**
 * A side's rows in the compared buckets, whole: the side's {@link RowPlacer} places each row in its
 * bucket by natural key and time as the cells stream past, and the cells are kept (copied) only for
 * rows of a bucket in {@code buckets}.
 */
final class SideCells implements PartitionMap<SideRow> {
  private static final long serialVersionUID = 1L;
  private final RowPlacer placer;
  private final HashSet<Integer> buckets;

  SideCells(RowPlacer placer, Set<Integer> buckets) {
    this.placer = placer;
    this.buckets = new HashSet<>(buckets);
  }

  @Override
  public Sink open(int partition, Consumer<SideRow> out) {
    RowPlacer.Streamed row = placer.streamed();
    List<DecodedCell> cells = new ArrayList<>();
    return new Sink() {
      @Override
      public void startRow(byte[] k) {
        row.start(k);
        cells.clear();
      }

      @Override
      public void cell(Cell c) {
        row.cell(c);
        cells.add(DecodedCell.of(c));
      }

      @Override
      public void endRow() {
        RowPlacer.Placed r = row.finish();
        if (buckets.contains(r.bucket())) {
          // the reader reuses the key's array: the row keeps a copy
          out.accept(
              new SideRow(r.rowKey().clone(), r.naturalKey(), r.bucket(), List.copyOf(cells)));
        }
      }

      @Override
      public void dropRow() {
        cells.clear();
      }

      @Override
      public void finish() {}
    };
  }
}

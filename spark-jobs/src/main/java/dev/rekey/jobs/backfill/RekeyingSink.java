package dev.rekey.jobs.backfill;

import dev.rekey.jobs.common.CellSink;
import dev.rekey.jobs.common.PackedCells;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.hadoop.hbase.Cell;

/**
 * A task's source rows streamed as cells ({@link dev.rekey.jobs.common.RegionRead#fold}), re-keyed
 * as they pass: each cell copied once, under its row's target key, into one array per row (no
 * {@code Result} and no cell object per source cell); the whole row then counted, quarantined or
 * trimmed as on the Result path ({@link RowRekeying}) and handed to the task's writer.
 */
final class RekeyingSink implements CellSink {
  /** Where the re-keyed rows go: one task's HFiles ({@link InOrderHFiles.Task}). */
  interface Rows {
    void add(RekeyedRows.Row row) throws IOException;

    /** The task's rows are all in: the files closed. */
    List<InOrderHFiles.WrittenFile> finish() throws IOException;
  }

  private static final Cell[] NO_CELLS = new Cell[0];

  private final RowRekeying rekeying;
  private final Rows out;
  private final PackedCells.Builder packed = new PackedCells.Builder();
  private byte[] target;

  RekeyingSink(RowRekeying rekeying, Rows out) {
    this.rekeying = rekeying;
    this.out = out;
  }

  @Override
  public void startRow(byte[] key) {
    target = rekeying.start(key);
    packed.clear();
  }

  @Override
  public void cell(Cell c) {
    if (target != null) { // an undecodable key's cells are not copied: the row is quarantined
      packed.add(target, c);
    }
  }

  @Override
  public void endRow() {
    RekeyedRows.Row row =
        rekeying.row(
            target == null ? NO_CELLS : PackedCells.unpack(packed.toArray(), 0), true, true);
    if (row != null) {
      try {
        out.add(row);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  @Override
  public void dropRow() {
    // nothing of the row was counted or passed on: it is streamed again from its first cell
    packed.clear();
  }

  /** The last row is in: closes the quarantine and the writer's files. */
  List<InOrderHFiles.WrittenFile> finish() throws IOException {
    rekeying.close();
    return out.finish();
  }
}

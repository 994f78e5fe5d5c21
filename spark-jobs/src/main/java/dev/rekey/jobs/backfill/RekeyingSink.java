package dev.rekey.jobs.backfill;

import dev.rekey.jobs.common.PackedCells;
import dev.rekey.jobs.common.PartitionFold;
import dev.rekey.jobs.common.PartitionMap;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.hbase.Cell;

/**
 * A task's source rows streamed as cells ({@link dev.rekey.jobs.common.RegionRead#fold}), re-keyed
 * as they pass: each cell copied once, under its row's target key, into one array per row (no
 * {@code Result} and no cell object per source cell); the whole row then counted, quarantined or
 * trimmed as on the Result path ({@link RowRekeying}) and handed on: to the task's HFiles ({@link
 * InOrderHFiles.Task}), or to the dry run's estimate.
 */
final class RekeyingSink<T> implements PartitionFold.Sink<T>, PartitionMap.Sink {
  /** Where the re-keyed rows go, and the task's total once they are all in. */
  interface Rows<T> {
    void add(RekeyedRow row) throws IOException;

    /** The task's rows are all in: its total (the files closed, an estimate). */
    T finish() throws IOException;

    /** The task failed: release what is open. */
    default void abandon() {}
  }

  private static final Cell[] NO_CELLS = new Cell[0];

  private final RowRekeying rekeying;
  private final Rows<T> out;
  private final PackedCells.Builder packed = new PackedCells.Builder();
  private byte[] target;

  RekeyingSink(RowRekeying rekeying, Rows<T> out) {
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
    RekeyedRow row =
        rekeying.row(target == null ? NO_CELLS : PackedCells.unpack(packed.toArray(), 0));
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

  @Override
  public void abandon() {
    out.abandon();
  }

  /** The last row is in: closes the quarantine, then the task's total (the writer's files). */
  @Override
  public T result() {
    rekeying.close();
    try {
      return out.finish();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** As a map's sink ({@link dev.rekey.jobs.common.RegionRead#map}): the total is not asked for. */
  @Override
  public void finish() {
    result();
  }
}

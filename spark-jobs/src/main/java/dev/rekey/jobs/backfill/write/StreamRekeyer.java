package dev.rekey.jobs.backfill.write;

import dev.rekey.read.PackedCells;
import dev.rekey.read.PartitionFold;
import dev.rekey.read.PartitionMap;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.hbase.Cell;

/**
 * A task's source rows streamed as cells (folded by the in-order write and the dry run, mapped by
 * the sorted path's map side: {@link dev.rekey.read.RegionRead}), re-keyed as they pass: each cell
 * copied once, under its row's target key, into the task's reused buffer (no {@code Result} and no
 * cell object per source cell); the whole row then counted, quarantined or trimmed ({@link
 * RowRekeyer}) and handed on: to the task's HFiles ({@link InOrderHFiles.Task}), to the sort
 * shuffle, or to the dry run's estimate. Only rows whose consumer keeps their cells get an array of
 * their own.
 */
public final class StreamRekeyer<T> implements PartitionFold.Sink<T>, PartitionMap.Sink {
  /** Where the re-keyed rows go, and the task's total once they are all in. */
  public interface Rows<T> {
    void add(RowRekeyer.Rekeyed row) throws IOException;

    /**
     * True if {@link #add} keeps the row's cells past the call (the HFile writer keeps its last
     * cell): they get an array of their own. False if it copies or reads them during the call only:
     * they point into the task's buffer, overwritten by the next row.
     */
    default boolean keepsCells() {
      return true;
    }

    /** The task's rows are all in: its total (the files closed, an estimate). */
    T finish() throws IOException;

    /** The task failed: release what is open. */
    default void abandon() {}
  }

  private static final Cell[] NO_CELLS = new Cell[0];

  private final RowRekeyer rowRekeyer;
  private final Rows<T> out;
  private final PackedCells.Builder packed = new PackedCells.Builder();
  private byte[] target;

  public StreamRekeyer(RowRekeyer rowRekeyer, Rows<T> out) {
    this.rowRekeyer = rowRekeyer;
    this.out = out;
  }

  @Override
  public void startRow(byte[] key) {
    target = rowRekeyer.start(key);
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
    Cell[] cells =
        target == null
            ? NO_CELLS
            : out.keepsCells() ? PackedCells.unpack(packed.toArray(), 0) : packed.cells();
    RowRekeyer.Rekeyed row = rowRekeyer.row(cells);
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
    rowRekeyer.close();
    try {
      return out.finish();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** As a map's sink ({@link dev.rekey.read.RegionRead#map}): the total is not asked for. */
  @Override
  public void finish() {
    result();
  }
}

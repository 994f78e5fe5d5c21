package dev.rekey.read;

import org.apache.hadoop.hbase.Cell;

/**
 * A partition's rows streamed as cells, in key order, for jobs that fold rows into totals: no
 * {@code Result} per row and no cell object kept past its call. Cells that are kept escape into the
 * heap one object each; streamed, the JIT keeps them off the heap (a snapshot read at 1.1x the raw
 * HFile pass, against ~1.9x with a Result per row: docs/benchmarks.md).
 */
public interface CellSink {
  /**
   * A row starts (at its first returned cell). {@code key} holds exactly the row key and is valid
   * until the next call of this method: copy it to keep it.
   */
  void startRow(byte[] key);

  /** A cell of the current row, valid only during this call. */
  void cell(Cell c);

  /** The current row is complete. */
  void endRow();

  /**
   * The current row (started, not ended) is void: it is streamed again from its first cell (the
   * reader handed the rest of its split to HBase's reader at a cell it leaves to HBase).
   */
  void dropRow();
}

package dev.rekey.jobs.compare;

import java.io.Serializable;
import org.apache.hadoop.hbase.Cell;

/**
 * How a side places a row as its cells stream past: its natural key and time bucket (reconcile's
 * {@code RowClassifier}). An interface so the compare depends on no job's classes.
 */
public interface RowPlacer extends Serializable {
  /** A row's state for one task: it holds one row at a time. */
  Streamed streamed();

  /** One row at a time: {@link #start} with its key, {@link #cell} per cell, {@link #finish}. */
  interface Streamed {
    void start(byte[] key);

    void cell(Cell c);

    Placed finish();
  }

  /** Where a finished row belongs. */
  interface Placed {
    /** The row key as given to {@link Streamed#start} (not copied). */
    byte[] rowKey();

    /** The canonical natural key; null when the key does not decode. */
    byte[] naturalKey();

    /** The time bucket; negative when the row is in none (outside the range, undecodable). */
    int bucket();
  }
}

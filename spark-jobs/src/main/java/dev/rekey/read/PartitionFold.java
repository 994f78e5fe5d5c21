package dev.rekey.read;

import java.io.Serializable;

/**
 * What a job folds each partition's rows into ({@link RegionRead#fold}): a fresh sink per
 * partition, shipped to the executors, and the partition's total once its last row is in.
 */
public interface PartitionFold<T> extends Serializable {
  /** A sink for partition {@code partition}'s rows. */
  Sink<T> open(int partition);

  /** A sink that yields one total. */
  interface Sink<T> extends CellSink {
    /** The partition's total, after its last row. */
    T result();

    /**
     * The partition's read (or its {@link #result}) failed: release what the sink holds (open
     * files, streams); no total is asked for.
     */
    default void abandon() {}
  }
}

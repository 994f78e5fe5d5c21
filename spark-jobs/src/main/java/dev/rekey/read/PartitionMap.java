package dev.rekey.read;

import java.io.Serializable;
import java.util.function.Consumer;

/**
 * What a job maps each partition's rows into ({@link RegionRead#map}): a fresh sink per partition,
 * shipped to the executors, that gets the rows as cells and hands records on as they are ready. The
 * rows are read as the records are taken, a row at a time: a partition is never held whole.
 */
public interface PartitionMap<R> extends Serializable {
  /** A sink for partition {@code partition}'s rows, handing its records to {@code out}. */
  Sink open(int partition, Consumer<R> out);

  /** A sink that hands records on. */
  interface Sink extends CellSink {
    /** The partition's last row is in: hand on what is left. */
    void finish();

    /** The partition's read failed: release what the sink holds. */
    default void abandon() {}
  }
}

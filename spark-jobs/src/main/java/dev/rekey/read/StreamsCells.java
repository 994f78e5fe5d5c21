package dev.rekey.read;

import java.io.IOException;
import java.util.function.BooleanSupplier;

/** A record reader that can stream its split's rows as cells, no Result per row. */
interface StreamsCells {
  /** How far a call of {@link #stream} went. */
  enum Streamed {
    /** {@code pause} said so after a row's end: call again for the rows after it. */
    PAUSED,
    /** The whole split went in. */
    DONE,
    /**
     * The rest (from the row it stopped at, that row included) is to be read as Results with {@code
     * nextKeyValue}: a split this reader does not stream, or one it handed to HBase's reader.
     */
    AS_RESULTS
  }

  /**
   * Streams the split's rows into {@code sink}, asking {@code pause} after each row's end whether
   * to return there (a job that maps rows into records takes them a row at a time; a fold never
   * pauses).
   */
  Streamed stream(CellSink sink, BooleanSupplier pause) throws IOException, InterruptedException;

  /**
   * Rows streamed whole into sinks so far (ended; a dropped row is not one): counted here, not by a
   * sink wrapped around the job's, whose extra call per cell cost ~10% of a streamed read.
   */
  long rowsStreamed();

  /** The first streamed row's key, or null if none. */
  byte[] firstRowStreamed();

  /**
   * The store files the split's reader read and skipped by time range, or null if it opened none
   * itself (HBase's reader took the split, and skips by the scan's time range on its own).
   */
  StoreFiles storeFiles();
}

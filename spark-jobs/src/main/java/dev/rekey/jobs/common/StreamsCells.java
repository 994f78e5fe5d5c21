package dev.rekey.jobs.common;

import java.io.IOException;

/** A record reader that can stream its split's rows as cells, no Result per row. */
interface StreamsCells {
  /**
   * Streams the split's rows into {@code sink}. True if the whole split went in; false if the rest
   * (from the row it stopped at, that row included) is to be read as Results with {@code
   * nextKeyValue}: a split this reader does not stream, or one it handed to HBase's reader.
   */
  boolean stream(CellSink sink) throws IOException, InterruptedException;
}

package dev.rekey.read;

import java.io.IOException;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.mapreduce.RecordReader;

/**
 * One split's rows into a sink, as many as asked at a time: streamed as cells where the reader can
 * ({@link StreamsCells}), else as its Results, consecutive Results of one row joined into one row
 * as {@link WholeRows} joins them. Closes nothing: the caller owns the reader.
 */
final class SplitRows {
  private final RecordReader<ImmutableBytesWritable, Result> reader;
  private boolean streaming;
  private byte[] open; // the row the sink has started from Results
  private Result held; // a Result of the next row, read before a pause
  private long rows; // ended, as Results; the streamed ones are the reader's count
  private byte[] firstKey; // of the first row ended as a Result

  SplitRows(RecordReader<ImmutableBytesWritable, Result> reader) {
    this.reader = reader;
    this.streaming = reader instanceof StreamsCells;
  }

  /**
   * Feeds rows into {@code sink} until {@code pause} says so after a row's end (true: call again
   * for the rest) or the split is in (false).
   */
  boolean feed(CellSink sink, BooleanSupplier pause) throws IOException, InterruptedException {
    if (streaming) {
      switch (((StreamsCells) reader).stream(sink, pause)) {
        case PAUSED:
          return true;
        case DONE:
          return false;
        default:
          streaming = false; // the rest as Results, from the row it stopped at
      }
    }
    while (true) {
      Result result = held;
      held = null;
      if (result == null) {
        if (!reader.nextKeyValue()) {
          break;
        }
        result = reader.getCurrentValue();
      }
      Cell[] cells = result.rawCells();
      if (cells == null || cells.length == 0) {
        continue;
      }
      if (open == null || !CellUtil.matchingRows(cells[0], open)) {
        if (open != null) {
          endRow(sink);
          if (pause.getAsBoolean()) {
            held = result;
            open = null;
            return true;
          }
        }
        // the Result's own copy of its row: HBase's live record reader has made it already
        open = result.getRow();
        sink.startRow(open);
      }
      for (Cell c : cells) {
        sink.cell(c);
      }
    }
    if (open != null) {
      endRow(sink);
      open = null;
    }
    return false;
  }

  /**
   * The split's rows ended so far: those the reader streamed (they come first in a split), then
   * those ended from Results. Ask before the reader is closed: it forgets its count then.
   */
  long rows() {
    return streamed() == null ? rows : streamed().rowsStreamed() + rows;
  }

  /** The split's first row's key (null if none), on the same terms as {@link #rows}. */
  byte[] firstKey() {
    StreamsCells s = streamed();
    return s != null && s.rowsStreamed() > 0 ? s.firstRowStreamed() : firstKey;
  }

  /** The store files the split's reader read and skipped ({@link StreamsCells#storeFiles}). */
  StoreFiles storeFiles() {
    StreamsCells s = streamed();
    return s == null ? null : s.storeFiles();
  }

  private StreamsCells streamed() {
    return reader instanceof StreamsCells s ? s : null;
  }

  private void endRow(CellSink sink) {
    sink.endRow();
    if (rows++ == 0) {
      firstKey = open;
    }
  }
}

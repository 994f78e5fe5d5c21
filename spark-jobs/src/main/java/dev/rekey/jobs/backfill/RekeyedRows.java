package dev.rekey.jobs.backfill;

import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Result;

/**
 * The map side over one input partition: each source Result → its target key and time, with its
 * cells as read; the consumer copies them under the target key ({@link PackedRow#pack}: family,
 * qualifier, timestamp, type and value kept) before asking for the next row, so nothing is kept
 * pointing into the reader's buffers. A row that arrives as several consecutive Results is counted
 * once. Undecodable keys go to the quarantine writer ({@link RowRekeying}). Lazy.
 */
final class RekeyedRows implements Iterator<RekeyedRows.Row> {
  /**
   * One source row re-keyed: its cells as read (their own row is the source key; they go under
   * targetKey), or, after the sort shuffle or packed from the cell stream, already under targetKey
   * ({@code keyed}).
   */
  record Row(byte[] sourceKey, byte[] targetKey, long time, Cell[] cells, boolean keyed) {}

  private final Iterator<Result> in;
  private final RowRekeying rekeying;
  private byte[] lastSource;
  private Row next;
  private boolean closed;

  RekeyedRows(Iterator<Result> in, RowRekeying rekeying) {
    this.in = in;
    this.rekeying = rekeying;
  }

  @Override
  public boolean hasNext() {
    while (next == null && in.hasNext()) {
      next = process(in.next());
    }
    if (next == null && !closed) {
      closed = true;
      rekeying.close();
    }
    return next != null;
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Row r = next;
    next = null;
    return r;
  }

  private Row process(Result r) {
    byte[] src = r.getRow();
    if (src == null) {
      return null;
    }
    // rows arrive whole (WholeRows); a later part of one would be passed on under the same key
    boolean continuation = lastSource != null && Arrays.equals(lastSource, src);
    if (!continuation) {
      lastSource = src;
      rekeying.start(src);
    }
    return rekeying.row(r.isEmpty() ? new Cell[0] : r.rawCells(), !continuation, false);
  }
}

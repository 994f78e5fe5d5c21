package dev.rekey.read;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Which Put cells of one store file a user scan returns, fed the file's cells in order (by row and
 * column, newest first): the scan's time range, the family's TTL, at most {@code maxVersions} per
 * column (the smaller of the scan's and the family's VERSIONS), and one cell per timestamp — the
 * first, as HBase's column tracker keeps it. These are the rules of HBase's query matcher that
 * apply to a file holding only Puts; delete markers are left to HBase itself ({@link
 * StoreFileRows}).
 */
final class ColumnVersions {
  private final long minTs;
  private final long maxTs;
  private final long oldestUnexpired;
  private final int maxVersions;
  // the current column's qualifier, copied: a kept cell would escape to the heap, one object per
  // cell, where a streamed read keeps none (CellSink)
  private byte[] column = new byte[16];
  private int columnLength = -1; // -1: no column yet in this row
  private int kept;
  private long lastTs;

  /**
   * @param minTs the time range's start (inclusive)
   * @param maxTs its end (exclusive)
   * @param oldestUnexpired cells stamped before this have outlived the family's TTL (Long.MIN_VALUE
   *     without a TTL)
   */
  ColumnVersions(long minTs, long maxTs, long oldestUnexpired, int maxVersions) {
    this.minTs = minTs;
    this.maxTs = maxTs;
    this.oldestUnexpired = oldestUnexpired;
    this.maxVersions = maxVersions;
  }

  /** Cells stamped before this have outlived the family's TTL (Long.MIN_VALUE without one). */
  long oldestUnexpired() {
    return oldestUnexpired;
  }

  /** A new row starts: the next cell starts a column (the row is not compared per cell). */
  void newRow() {
    columnLength = -1;
  }

  /**
   * True if the scan returns this cell; cells must come in store order, those of one row after
   * {@link #newRow}.
   */
  boolean accept(Cell c) {
    // one family, one row: a column is told by its qualifier alone
    if (columnLength < 0 || !CellUtil.matchingQualifier(c, column, 0, columnLength)) {
      startColumn(c.getQualifierLength());
      CellUtil.copyQualifierTo(c, column, 0);
    }
    return acceptVersion(c.getTimestamp());
  }

  /**
   * {@link #accept(Cell)} for a cell given by its qualifier's bytes and its timestamp: a streamed
   * read passes these, not the cell, so that the cell stays out of the heap when this method is not
   * inlined into the read loop.
   */
  boolean accept(byte[] qualifier, int offset, int length, long ts) {
    if (columnLength < 0 || !Bytes.equals(column, 0, columnLength, qualifier, offset, length)) {
      startColumn(length);
      System.arraycopy(qualifier, offset, column, 0, length);
    }
    return acceptVersion(ts);
  }

  private void startColumn(int qualifierLength) {
    if (qualifierLength > column.length) {
      column = new byte[Math.max(qualifierLength, 2 * column.length)];
    }
    columnLength = qualifierLength;
    kept = 0;
    lastTs = Long.MIN_VALUE;
  }

  private boolean acceptVersion(long ts) {
    if (ts >= maxTs || ts < minTs || ts < oldestUnexpired) {
      return false;
    }
    if (ts == lastTs) {
      return false; // the same version again (an older write of it): HBase returns the first
    }
    lastTs = ts;
    if (kept >= maxVersions) {
      return false;
    }
    kept++;
    return true;
  }
}

package dev.rekey.jobs.common;

import org.apache.hadoop.hbase.Cell;
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
  // the current column's qualifier where the cell holds it, not copied: a store file's cells point
  // into their block's array, read into a new one per block (CacheConfig.DISABLED: the heap
  // allocator, no pool), so it stays put while the row is read; a copy per column cost a fifth of
  // this class's time in a streamed read
  private byte[] column;
  private int columnOffset;
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

  /** A new row starts: the next cell starts a column (the row is not compared per cell). */
  void newRow() {
    columnLength = -1;
  }

  /**
   * True if the scan returns this cell; cells must come in store order, those of one row after
   * {@link #newRow}.
   */
  boolean accept(Cell c) {
    return accept(
        c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength(), c.getTimestamp());
  }

  /**
   * {@link #accept(Cell)} for a cell given by its qualifier's bytes and its timestamp: a streamed
   * read passes these, not the cell, so that the cell stays out of the heap when this method is not
   * inlined into the read loop. The qualifier's array must not change while the row is read.
   */
  boolean accept(byte[] qualifier, int offset, int length, long ts) {
    if (columnLength < 0
        || !Bytes.equals(column, columnOffset, columnLength, qualifier, offset, length)) {
      column = qualifier;
      columnOffset = offset;
      columnLength = length;
      kept = 0;
      lastTs = Long.MIN_VALUE;
    }
    return acceptVersion(ts);
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

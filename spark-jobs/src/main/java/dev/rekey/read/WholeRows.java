package dev.rekey.read;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Merges consecutive Results of the same row into one: a scanner may hand a wide row over in parts,
 * and every rekey job counts and rekeys whole rows. Results of one row are adjacent within a
 * region's scan.
 */
final class WholeRows implements Iterator<Result> {
  private final Iterator<Result> in;
  private Result pending;

  private WholeRows(Iterator<Result> in) {
    this.in = in;
    this.pending = in.hasNext() ? in.next() : null;
  }

  static Iterator<Result> merge(Iterator<Result> in) {
    return new WholeRows(in);
  }

  @Override
  public boolean hasNext() {
    return pending != null;
  }

  @Override
  public Result next() {
    if (pending == null) {
      throw new NoSuchElementException();
    }
    Result first = pending;
    List<Result> parts = null;
    pending = null;
    while (in.hasNext()) {
      Result r = in.next();
      if (sameRow(r, first)) {
        if (parts == null) {
          parts = new ArrayList<>();
          parts.add(first);
        }
        parts.add(r);
      } else {
        pending = r;
        break;
      }
    }
    if (parts == null) {
      return first;
    }
    try {
      return Result.createCompleteResult(parts);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot merge the parts of row " + Bytes.toStringBinary(first.getRow()), e);
    }
  }

  /**
   * Compared on the rows' first cells: {@link Result#getRow} copies the key out of the cell, a copy
   * per row for a check that almost always finds two different rows.
   */
  private static boolean sameRow(Result a, Result b) {
    Cell[] ca = a.rawCells();
    Cell[] cb = b.rawCells();
    if (ca == null || ca.length == 0 || cb == null || cb.length == 0) {
      return Bytes.equals(a.getRow(), b.getRow());
    }
    return CellUtil.matchingRows(ca[0], cb[0]);
  }
}

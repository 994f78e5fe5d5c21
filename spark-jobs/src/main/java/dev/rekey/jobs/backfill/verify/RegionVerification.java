package dev.rekey.jobs.backfill.verify;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.function.ToIntFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;

/**
 * Verification of one target region after the load: is every cell the backfill wrote there — each
 * version of each column, by row, family, qualifier and timestamp — in the table? Walks two streams
 * in HBase cell order side by side, the cells of the region's kept HFiles and the table's cells in
 * the region's key range (all versions), so:
 *
 * <ul>
 *   <li>rows someone else put there (a migration's dual writer) are counted apart, not as a
 *       failure;
 *   <li>a lost row or a lost older version is found even when such rows make the totals equal;
 *   <li>a written version that the table hides because it holds the family's VERSIONS newer cells
 *       of that column (dual writes since the snapshot) is counted as shadowed: HBase itself would
 *       never return it.
 * </ul>
 */
final class RegionVerification {
  private static final CellComparator ORDER = CellComparator.getInstance();

  /**
   * What the HFiles hold, what of it the table has or legitimately hides, and the table's other
   * rows.
   */
  record Outcome(
      long writtenRows, long writtenCells, long foundCells, long shadowedCells, long otherRows)
      implements java.io.Serializable {
    long missingCells() {
      return writtenCells - foundCells - shadowedCells;
    }

    /**
     * Every cell the manifest counted is in the files, and every one of them is in the table (or
     * shadowed).
     */
    boolean complete(long manifestRows, long manifestCells) {
      return writtenRows == manifestRows && writtenCells == manifestCells && missingCells() == 0;
    }
  }

  private RegionVerification() {}

  /**
   * Checks one region's kept HFiles (in {@code regionDir}) against the table's cells of its key
   * range.
   */
  static Outcome check(
      Iterator<Cell> tableCells,
      ToIntFunction<Cell> maxVersions,
      FileSystem fs,
      Path regionDir,
      Configuration conf)
      throws IOException {
    List<HFile.Reader> readers = new ArrayList<>();
    try {
      PriorityQueue<FileCells> queue = new PriorityQueue<>();
      if (fs.exists(regionDir)) {
        for (FileStatus fam : fs.listStatus(regionDir)) {
          for (FileStatus f : fs.listStatus(fam.getPath())) {
            HFile.Reader r = HFile.createReader(fs, f.getPath(), CacheConfig.DISABLED, true, conf);
            readers.add(r);
            FileCells cells = new FileCells(r.getScanner(conf, false, false));
            if (cells.current != null) {
              queue.add(cells);
            }
          }
        }
      }
      return merge(new MergedCells(queue), tableCells, maxVersions);
    } finally {
      for (HFile.Reader r : readers) {
        r.close();
      }
    }
  }

  /**
   * Counts over two cell streams in HBase order (row, family, qualifier, newest first), the written
   * one free of duplicates (pure: unit-tested). {@code maxVersions} gives a cell's family VERSIONS
   * in the table.
   */
  static Outcome merge(
      Iterator<Cell> written, Iterator<Cell> inTable, ToIntFunction<Cell> maxVersions) {
    long rows = 0;
    long cells = 0;
    long found = 0;
    long shadowed = 0;
    long others = 0;
    Cell lastWritten = null;
    Cell lastOther = null;
    int newerInColumn =
        0; // table cells of the current written column at or above the written cell's timestamp
    Cell t = inTable.hasNext() ? inTable.next() : null;
    while (written.hasNext()) {
      Cell w = written.next();
      cells++;
      if (lastWritten == null || !CellUtil.matchingRows(lastWritten, w)) {
        rows++;
        newerInColumn = 0;
      } else if (!CellUtil.matchingColumn(lastWritten, w)) {
        newerInColumn = 0;
      }
      while (t != null && compareKey(t, w) < 0) {
        if (CellUtil.matchingRows(t, w) && CellUtil.matchingColumn(t, w)) {
          newerInColumn++;
        } else if (!sameRow(t, w) && !sameRow(t, lastWritten) && !sameRow(t, lastOther)) {
          others++;
          lastOther = t;
        }
        t = inTable.hasNext() ? inTable.next() : null;
      }
      if (t != null && compareKey(t, w) == 0) {
        found++;
        newerInColumn++;
        t = inTable.hasNext() ? inTable.next() : null;
      } else if (newerInColumn >= maxVersions.applyAsInt(w)) {
        shadowed++;
      }
      lastWritten = w;
    }
    while (t != null) {
      if (!sameRow(t, lastWritten) && !sameRow(t, lastOther)) {
        others++;
        lastOther = t;
      }
      t = inTable.hasNext() ? inTable.next() : null;
    }
    return new Outcome(rows, cells, found, shadowed, others);
  }

  /**
   * Row, family, qualifier, then newest first; type and sequence id ignored (scans return puts
   * only).
   */
  private static int compareKey(Cell a, Cell b) {
    int c = ORDER.compareRows(a, b);
    if (c == 0) {
      c = ORDER.compareFamilies(a, b);
    }
    if (c == 0) {
      c = ORDER.compareQualifiers(a, b);
    }
    return c != 0 ? c : Long.compare(b.getTimestamp(), a.getTimestamp());
  }

  private static boolean sameRow(Cell a, Cell b) {
    return b != null && CellUtil.matchingRows(a, b);
  }

  /** The cells of one HFile, in order (each copied: the scanner reuses its buffers). */
  private static final class FileCells implements Comparable<FileCells> {
    private final HFileScanner scanner;
    Cell current;

    FileCells(HFileScanner scanner) throws IOException {
      this.scanner = scanner;
      this.current = scanner.seekTo() ? copy(scanner.getKey()) : null;
    }

    void advance() throws IOException {
      current = scanner.next() ? copy(scanner.getKey()) : null;
    }

    private static Cell copy(Cell key) {
      return new KeyValue.KeyOnlyKeyValue(PrivateCellUtil.getCellKeySerializedAsKeyValueKey(key));
    }

    @Override
    public int compareTo(FileCells o) {
      return ORDER.compare(current, o.current);
    }
  }

  /** The cells of several HFiles (one per family and sub-partition), in order. */
  private static final class MergedCells implements Iterator<Cell> {
    private final PriorityQueue<FileCells> queue;

    MergedCells(PriorityQueue<FileCells> queue) {
      this.queue = queue;
    }

    @Override
    public boolean hasNext() {
      return !queue.isEmpty();
    }

    @Override
    public Cell next() {
      if (queue.isEmpty()) {
        throw new NoSuchElementException();
      }
      FileCells head = queue.poll();
      Cell c = head.current;
      try {
        head.advance();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (head.current != null) {
        queue.add(head);
      }
      return c;
    }
  }
}

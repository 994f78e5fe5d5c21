package dev.rekey.read;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.KeyValueHeap;
import org.apache.hadoop.hbase.regionserver.KeyValueScanner;
import org.apache.hadoop.hbase.regionserver.StoreFileScanner;

/**
 * One family's store files in a {@link StoreFileRows} read, and its scan rules. Several files are
 * merged by HBase's own heap (newer file first among equal cells, as the region scanner merges
 * them), built at the first seek: the heap drops a scanner that has not been positioned yet. A
 * single file (a major-compacted or bulk-loaded family, the common case) is read by its HFile
 * scanner directly: nothing to merge, and a store-file scanner's MVCC and sequence-id handling per
 * cell is moot at a snapshot's read point.
 */
final class FamilyFiles {
  final List<HStoreFile> files;
  final List<StoreFileScanner> scanners;
  final ColumnVersions rules;
  final HFileScanner single; // the one file's scanner, or null for several files
  private KeyValueScanner merged;
  private Cell cur; // single: the current cell, null before the first seek and at the file's end

  private FamilyFiles(
      List<HStoreFile> files,
      List<StoreFileScanner> scanners,
      HFileScanner single,
      ColumnVersions rules) {
    this.files = files;
    this.scanners = scanners;
    this.single = single;
    this.rules = rules;
  }

  /** The family's files to read ({@code opened}, not empty), with their scanners. */
  static FamilyFiles of(List<HStoreFile> opened, ColumnVersions rules) throws IOException {
    if (opened.size() == 1) {
      // one file: its HFile scanner, reading the file front to back (no positioned reads)
      HStoreFile only = opened.get(0);
      only.initReader();
      return new FamilyFiles(
          opened, List.of(), only.getReader().getScanner(false, false, false), rules);
    }
    // HBase's own scanners, ordered by the files' sequence ids (it opens their readers)
    List<StoreFileScanner> scanners =
        StoreFileScanner.getScannersForStoreFiles(
            opened, false, false, false, false, Long.MAX_VALUE);
    return new FamilyFiles(opened, scanners, null, rules);
  }

  /** The first cell of the lowest row any family's scanner is at (null: all at their end). */
  static Cell lowestRow(List<FamilyFiles> families) {
    CellComparator cmp = CellComparator.getInstance();
    Cell lowest = families.get(0).peek();
    for (int i = 1; i < families.size(); i++) {
      Cell c = families.get(i).peek();
      if (c != null && (lowest == null || cmp.compareRows(c, lowest) < 0)) {
        lowest = c;
      }
    }
    return lowest;
  }

  /** True when every family's scanner is past {@code stop} (or at its files' end). */
  static boolean allPast(List<FamilyFiles> families, byte[] stop) {
    CellComparator cmp = CellComparator.getInstance();
    for (FamilyFiles f : families) {
      Cell c = f.peek();
      if (c != null && (stop.length == 0 || cmp.compareRows(c, stop, 0, stop.length) < 0)) {
        return false;
      }
    }
    return true;
  }

  void seek(Cell first) throws IOException {
    if (single != null) {
      // forward: the ranges come in key order
      cur = StoreFileScanner.seekAtOrAfter(single, first) ? single.getCell() : null;
      return;
    }
    if (merged != null) {
      merged.seek(first); // forward: the ranges come in key order
      return;
    }
    for (StoreFileScanner s : scanners) {
      s.seek(first);
    }
    merged =
        scanners.size() == 1
            ? scanners.get(0)
            : new KeyValueHeap(scanners, CellComparator.getInstance());
  }

  Cell peek() {
    if (single != null) {
      return cur;
    }
    return merged == null ? null : merged.peek();
  }

  /** Moves past the current cell (there is one). */
  void next() throws IOException {
    if (single != null) {
      cur = single.next() ? single.getCell() : null;
      return;
    }
    merged.next();
  }

  void close() {
    if (single != null) {
      single.close();
    } else if (merged != null) {
      merged.close();
    } else {
      scanners.forEach(StoreFileScanner::close);
    }
    for (HStoreFile f : files) {
      try {
        f.closeStoreFile(false);
      } catch (IOException e) {
        // a read-only file of a restored snapshot: nothing to flush or lose
      }
    }
  }
}

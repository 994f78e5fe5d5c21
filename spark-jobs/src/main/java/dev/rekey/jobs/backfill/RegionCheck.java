package dev.rekey.jobs.backfill;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Verification of one target region after the load: is every row the backfill wrote there in the table? Walks two
 * sorted streams side by side, the row keys of the region's kept HFiles and the table's row keys in the region's key
 * range, so rows that someone else put there (the dual writer of a migration) are counted apart instead of failing
 * the check, and a lost row is found even when such rows make the totals equal.
 */
final class RegionCheck {
  /** Rows the HFiles hold, how many of them the table has, and the table's other rows in the range. */
  record Outcome(long written, long found, long others) implements java.io.Serializable {
    boolean complete(long manifestRows) {
      return written == manifestRows && found == written;
    }
  }

  private RegionCheck() {
  }

  /** Checks one region's kept HFiles (in {@code regionDir}) against the table's row keys of its key range. */
  static Outcome check(Iterator<byte[]> tableKeys, FileSystem fs, Path regionDir, Configuration conf)
      throws IOException {
    List<HFile.Reader> readers = new ArrayList<>();
    try {
      PriorityQueue<FileRows> queue = new PriorityQueue<>();
      if (fs.exists(regionDir)) {
        for (FileStatus fam : fs.listStatus(regionDir)) {
          for (FileStatus f : fs.listStatus(fam.getPath())) {
            HFile.Reader r = HFile.createReader(fs, f.getPath(), CacheConfig.DISABLED, true, conf);
            readers.add(r);
            FileRows rows = new FileRows(r.getScanner(conf, false, false));
            if (rows.current != null) {
              queue.add(rows);
            }
          }
        }
      }
      return merge(new MergedRows(queue), tableKeys);
    } finally {
      for (HFile.Reader r : readers) {
        r.close();
      }
    }
  }

  /** Counts over two ascending, duplicate-free key streams (pure: unit-tested). */
  static Outcome merge(Iterator<byte[]> written, Iterator<byte[]> inTable) {
    long n = 0;
    long found = 0;
    long others = 0;
    byte[] t = inTable.hasNext() ? inTable.next() : null;
    while (written.hasNext()) {
      byte[] k = written.next();
      n++;
      while (t != null && Bytes.compareTo(t, k) < 0) {
        others++;
        t = inTable.hasNext() ? inTable.next() : null;
      }
      if (t != null && Bytes.equals(t, k)) {
        found++;
        t = inTable.hasNext() ? inTable.next() : null;
      }
    }
    while (t != null) {
      others++;
      t = inTable.hasNext() ? inTable.next() : null;
    }
    return new Outcome(n, found, others);
  }

  /** The distinct row keys of one HFile, in order. */
  private static final class FileRows implements Comparable<FileRows> {
    private final HFileScanner scanner;
    byte[] current;

    FileRows(HFileScanner scanner) throws IOException {
      this.scanner = scanner;
      this.current = scanner.seekTo() ? CellUtil.cloneRow(scanner.getCell()) : null;
    }

    void advance() throws IOException {
      byte[] was = current;
      current = null;
      while (scanner.next()) {
        if (!CellUtil.matchingRows(scanner.getCell(), was)) {
          current = CellUtil.cloneRow(scanner.getCell());
          return;
        }
      }
    }

    @Override
    public int compareTo(FileRows o) {
      return Bytes.compareTo(current, o.current);
    }
  }

  /** The distinct row keys of several HFiles (one per family and sub-partition), in order. */
  private static final class MergedRows implements Iterator<byte[]> {
    private final PriorityQueue<FileRows> queue;
    private byte[] last;

    MergedRows(PriorityQueue<FileRows> queue) {
      this.queue = queue;
    }

    @Override
    public boolean hasNext() {
      try {
        while (!queue.isEmpty() && last != null && Bytes.equals(queue.peek().current, last)) {
          step();
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return !queue.isEmpty();
    }

    @Override
    public byte[] next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      last = queue.peek().current;
      try {
        step();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return last;
    }

    private void step() throws IOException {
      FileRows head = queue.poll();
      head.advance();
      if (head.current != null) {
        queue.add(head);
      }
    }
  }
}

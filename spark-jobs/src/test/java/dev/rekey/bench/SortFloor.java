package dev.rekey.bench;

import dev.rekey.jobs.backfill.write.TargetFileWriter;
import dev.rekey.rowkey.KeyRekeyer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;

/**
 * The sort floor of a reordering backfill (benchmarks only): what the sorted path does at least,
 * without Spark — the snapshot's store files read with HBase's HFile reader, each row re-keyed
 * ({@link KeyRekeyer}) and its cells rebuilt under the new key into the list of its target region,
 * one thread per core; then each region's cells sorted and written to one HFile with the target's
 * file settings ({@link TargetFileWriter}), again one thread per core. No shuffle, spill, load or
 * verification: everything stays in this JVM's heap. The files are deleted after the pass. Its read
 * phase, which builds a KeyValue per cell, is no faster than the sorted job's whole map stage (1M
 * rows: 0.8 s and 0.8 s; 6M: 4.7-6.9 s against 3.5-7.4 s, 2026-12-04, 2 loaded cores), so the floor
 * is tight on the sort and write (2.2-6.5 s against the job's 4.0-8.6 s at 6M) and loose on the
 * read.
 */
final class SortFloor {
  private SortFloor() {}

  static HFileFloor.Pass raw(
      Configuration conf,
      String snapshot,
      int threads,
      KeyRekeyer rekeyer,
      TableDescriptor target,
      List<byte[]> splits,
      Path dir)
      throws Exception {
    Path root = CommonFSUtils.getRootDir(conf);
    FileSystem fs = root.getFileSystem(conf);
    List<Path> files = HFileFloor.files(conf, fs, root, snapshot);
    int regions = splits.size() + 1;
    // per region, the lists the read threads filled (one per file: no locking on the hot path)
    List<List<List<KeyValue>>> byRegion = new ArrayList<>();
    for (int r = 0; r < regions; r++) {
      byRegion.add(Collections.synchronizedList(new ArrayList<>()));
    }
    long t0 = System.nanoTime();
    try {
      long[] read =
          ParallelCounts.sum(files, threads, p -> readFile(fs, p, conf, rekeyer, splits, byRegion));
      long t1 = System.nanoTime();
      List<Integer> regionIds = new ArrayList<>();
      for (int r = 0; r < regions; r++) {
        regionIds.add(r);
      }
      ColumnFamilyDescriptor family = target.getColumnFamilies()[0];
      long[] written =
          ParallelCounts.sum(
              regionIds,
              threads,
              r -> writeRegion(conf, fs, new Path(dir, "r" + r), target, family, byRegion.get(r)));
      System.out.printf(
          "sort floor: read + rekey %.2f s, sort + HFile write %.2f s (%d files, %d threads)%n",
          (t1 - t0) / 1e9, (System.nanoTime() - t1) / 1e9, files.size(), threads);
      if (written[1] != read[1]) {
        throw new IllegalStateException(
            "the sort floor read " + read[1] + " cells and wrote " + written[1]);
      }
      return new HFileFloor.Pass(files.size(), read[0], read[1], (System.nanoTime() - t0) / 1e9);
    } finally {
      fs.delete(dir, true);
    }
  }

  /** One store file's rows re-keyed into their regions' lists: {rows, cells}. */
  private static long[] readFile(
      FileSystem fs,
      Path p,
      Configuration conf,
      KeyRekeyer rekeyer,
      List<byte[]> splits,
      List<List<List<KeyValue>>> byRegion)
      throws IOException {
    List<List<KeyValue>> mine = new ArrayList<>();
    for (int r = 0; r < byRegion.size(); r++) {
      mine.add(new ArrayList<>());
    }
    byte[][] key = new byte[1][];
    List<KeyValue>[] into = new List[1];
    long[] n =
        HFileFloor.scan(
            fs,
            p,
            conf,
            row -> {
              key[0] = rekeyer.rekey(row);
              into[0] = mine.get(region(splits, key[0]));
            },
            c -> into[0].add(RekeyedCells.rebuild(key[0], c)));
    for (int r = 0; r < mine.size(); r++) {
      byRegion.get(r).add(mine.get(r));
    }
    return n;
  }

  /** The region of a key: the number of split points at or below it. */
  private static int region(List<byte[]> splits, byte[] key) {
    int i = Collections.binarySearch(splits, key, Bytes.BYTES_COMPARATOR);
    return i >= 0 ? i + 1 : -i - 1;
  }

  /** One region's cells sorted and written to one file: {0, cells}. */
  private static long[] writeRegion(
      Configuration conf,
      FileSystem fs,
      Path dir,
      TableDescriptor target,
      ColumnFamilyDescriptor family,
      List<List<KeyValue>> parts)
      throws IOException {
    int size = parts.stream().mapToInt(List::size).sum();
    if (size == 0) {
      return new long[] {0, 0};
    }
    List<KeyValue> cells = new ArrayList<>(size);
    parts.forEach(cells::addAll);
    parts.clear();
    cells.sort(CellComparator.getInstance());
    StoreFileWriter w = TargetFileWriter.open(conf, fs, dir, target, family);
    for (KeyValue kv : cells) {
      w.append(kv);
    }
    TargetFileWriter.close(w, 0);
    return new long[] {0, size};
  }
}

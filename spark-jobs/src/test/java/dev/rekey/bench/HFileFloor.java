package dev.rekey.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.io.HFileLink;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.shaded.protobuf.generated.SnapshotProtos;
import org.apache.hadoop.hbase.snapshot.SnapshotDescriptionUtils;
import org.apache.hadoop.hbase.snapshot.SnapshotReferenceUtil;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.spark.SerializableWritable;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;

/**
 * The read floor of a snapshot (benchmarks only): every store file of the snapshot read with
 * HBase's own HFile reader and scanner, one thread per core, cells counted and rows counted as
 * row-key changes within a file (exact for one family and one file per region, as the benchmarks'
 * major-compacted or freshly flushed tables have). No merge of store files, no delete markers or
 * versions, no Result, no Spark: the least a snapshot read can cost.
 */
public final class HFileFloor {
  /** What one pass read. */
  public record Pass(int files, long rows, long cells, double seconds) {
    public double rowsPerSecond() {
      return rows / seconds;
    }
  }

  private HFileFloor() {}

  /** Reads every HFile of the snapshot with {@code threads} threads. */
  public static Pass read(Configuration conf, String snapshot, int threads) throws Exception {
    Path root = CommonFSUtils.getRootDir(conf);
    FileSystem fs = root.getFileSystem(conf);
    List<Path> files = files(conf, fs, root, snapshot);
    long t0 = System.nanoTime();
    long[] n = ParallelCounts.sum(files, threads, p -> readFile(fs, p, conf));
    return new Pass(files.size(), n[0], n[1], (System.nanoTime() - t0) / 1e9);
  }

  /**
   * The same pass as one Spark job, a task per file (the conf broadcast, as the jobs' reads ship
   * theirs): what any Spark read of these files costs at least — the floor with Spark's own cost
   * per job and per task in it, finding the files included.
   */
  public static Pass readInSpark(JavaSparkContext jsc, Configuration conf, String snapshot)
      throws Exception {
    long t0 = System.nanoTime();
    Path root = CommonFSUtils.getRootDir(conf);
    List<String> files =
        files(conf, root.getFileSystem(conf), root, snapshot).stream().map(Path::toString).toList();
    Broadcast<SerializableWritable<Configuration>> shipped =
        jsc.broadcast(new SerializableWritable<>(conf));
    long[] n =
        jsc.parallelize(files, files.size())
            .map(
                f -> {
                  Configuration c = shipped.value().value();
                  Path p = new Path(f);
                  return readFile(p.getFileSystem(c), p, c);
                })
            .reduce((a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
    shipped.destroy();
    return new Pass(files.size(), n[0], n[1], (System.nanoTime() - t0) / 1e9);
  }

  /** The snapshot's store files, each at the path its link resolves to. */
  static List<Path> files(Configuration conf, FileSystem fs, Path root, String snapshot)
      throws IOException {
    Path snapshotDir = SnapshotDescriptionUtils.getCompletedSnapshotDir(snapshot, root);
    SnapshotProtos.SnapshotDescription desc =
        SnapshotDescriptionUtils.readSnapshotInfo(fs, snapshotDir);
    TableName table = TableName.valueOf(desc.getTable());
    List<Path> files = new ArrayList<>();
    SnapshotReferenceUtil.visitReferencedFiles(
        conf,
        fs,
        snapshotDir,
        (RegionInfo region, String family, SnapshotProtos.SnapshotRegionManifest.StoreFile f) -> {
          HFileLink link =
              HFileLink.build(conf, table, region.getEncodedName(), family, f.getName());
          files.add(link.getAvailablePath(fs));
        });
    return files;
  }

  private static long[] readFile(FileSystem fs, Path p, Configuration conf) throws IOException {
    return scan(fs, p, conf, row -> {}, c -> {});
  }

  /** What a scan of one store file does when a row starts. */
  interface RowVisitor {
    void row(byte[] row) throws IOException;
  }

  /** What a scan of one store file does with each cell (after its row's {@link RowVisitor}). */
  interface CellVisitor {
    void cell(Cell c) throws IOException;
  }

  /**
   * One store file scanned with HBase's HFile reader, each row's start handed to {@code onRow} and
   * each cell to {@code onCell}: {rows, cells}, rows counted as row-key changes.
   */
  static long[] scan(
      FileSystem fs, Path p, Configuration conf, RowVisitor onRow, CellVisitor onCell)
      throws IOException {
    long rows = 0;
    long cells = 0;
    try (HFile.Reader reader = HFile.createReader(fs, p, CacheConfig.DISABLED, true, conf)) {
      HFileScanner s = reader.getScanner(conf, false, false);
      if (s.seekTo()) {
        byte[] row = null;
        do {
          Cell c = s.getCell();
          cells++;
          if (row == null || !CellUtil.matchingRows(c, row)) {
            row = CellUtil.cloneRow(c);
            rows++;
            onRow.row(row);
          }
          onCell.cell(c);
        } while (s.next());
      }
    }
    return new long[] {rows, cells};
  }
}

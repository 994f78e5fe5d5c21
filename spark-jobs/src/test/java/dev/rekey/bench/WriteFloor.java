package dev.rekey.bench;

import dev.rekey.common.HBaseConfigs;
import dev.rekey.read.PackedCells;
import dev.rekey.read.PartitionFold;
import dev.rekey.read.RegionRead;
import dev.rekey.read.RegionReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The floors of a backfill (benchmarks only): the snapshot read and every cell written to HFiles in
 * source order ({@link FloorFiles}: the target's file settings and shape), nothing re-keyed,
 * shuffled, loaded or verified. Two of them: {@link #spark} reads as the backfill's in-order path
 * reads (the shared reader, rows streamed as cells and each row's cells copied once, a task per
 * read split), the least any Spark backfill does; {@link #raw} has no Spark: HBase's HFile reader
 * and scanner over the snapshot's store files, one thread per core, each cell appended as scanned,
 * the least any backfill does. The files are deleted after each pass.
 */
final class WriteFloor {
  private WriteFloor() {}

  /**
   * The read and write as one Spark job over the snapshot, read splits as the backfill's, each task
   * into {@code shards} files.
   */
  static HFileFloor.Pass spark(
      JavaSparkContext jsc,
      Configuration conf,
      String snapshot,
      int minPartitions,
      TableDescriptor target,
      int shards,
      Path dir)
      throws Exception {
    long t0 = System.nanoTime();
    try (RegionRead read =
        RegionReader.snapshot(snapshot).minPartitions(minPartitions).open(jsc, conf)) {
      long[] n =
          read.fold(new SparkFloor(HBaseConfigs.toMap(conf), target, shards, dir.toString()))
              .reduce((a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
      return new HFileFloor.Pass(read.partitions(), n[0], n[1], (System.nanoTime() - t0) / 1e9);
    } finally {
      dir.getFileSystem(conf).delete(dir, true);
    }
  }

  /**
   * The read and write without Spark: a store file per task, {@code threads} at a time, each into
   * {@code shards} files.
   */
  static HFileFloor.Pass raw(
      Configuration conf,
      String snapshot,
      int threads,
      TableDescriptor target,
      int shards,
      Path dir)
      throws Exception {
    Path root = CommonFSUtils.getRootDir(conf);
    FileSystem fs = root.getFileSystem(conf);
    List<Path> files = HFileFloor.files(conf, fs, root, snapshot);
    long t0 = System.nanoTime();
    try {
      long[] n =
          ParallelCounts.sum(
              files,
              threads,
              p ->
                  copy(
                      fs,
                      p,
                      conf,
                      new FloorFiles(conf, new Path(dir, p.getName()), target, shards)));
      return new HFileFloor.Pass(files.size(), n[0], n[1], (System.nanoTime() - t0) / 1e9);
    } finally {
      fs.delete(dir, true);
    }
  }

  /** One store file scanned and written: {rows, cells}. */
  private static long[] copy(FileSystem fs, Path p, Configuration conf, FloorFiles out)
      throws IOException {
    long[] n = HFileFloor.scan(fs, p, conf, row -> out.row(row, 0, row.length), out::append);
    return new long[] {n[0], out.close()};
  }

  /** Each partition's rows streamed as cells, a row's cells copied once, then written. */
  private static final class SparkFloor implements PartitionFold<long[]> {
    private static final long serialVersionUID = 1L;
    private final Map<String, String> conf;
    private final byte[] target;
    private final int shards;
    private final String dir;

    SparkFloor(Map<String, String> conf, TableDescriptor target, int shards, String dir) {
      this.conf = conf;
      this.target = TableDescriptorBuilder.toByteArray(target);
      this.shards = shards;
      this.dir = dir;
    }

    @Override
    public Sink<long[]> open(int partition) {
      try {
        FloorFiles out =
            new FloorFiles(
                HBaseConfigs.fromMap(conf),
                new Path(dir, "p" + partition + "-" + TaskContext.get().taskAttemptId()),
                TableDescriptorBuilder.parseFrom(target),
                shards);
        return new Sink<>() {
          private final PackedCells.Builder packed = new PackedCells.Builder();
          private byte[] key;
          private long rows;

          @Override
          public void startRow(byte[] k) {
            key = k;
            packed.clear();
          }

          @Override
          public void cell(Cell c) {
            packed.add(key, c);
          }

          @Override
          public void endRow() {
            out.row(key, 0, key.length);
            try {
              // an array of its own, as the backfill's rows: the writer keeps its last cell
              for (Cell c : PackedCells.unpack(packed.toArray(), 0)) {
                out.append(c);
              }
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
            rows++;
          }

          @Override
          public void dropRow() {
            packed.clear();
          }

          @Override
          public long[] result() {
            try {
              return new long[] {rows, out.close()};
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
        };
      } catch (IOException | org.apache.hadoop.hbase.exceptions.DeserializationException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}

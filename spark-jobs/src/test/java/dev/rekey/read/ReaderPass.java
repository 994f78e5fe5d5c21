package dev.rekey.read;

import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.TableInputFormat;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormat;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;

/**
 * The shared reader's record readers over a snapshot without Spark (benchmarks only): the splits
 * {@link RegionReader}'s input format plans, each read to its end by one of {@code threads}
 * threads, rows and cells counted. Set beside the raw HFile pass and the Spark read pass, it tells
 * the reader's own per-row cost from Spark's.
 */
public final class ReaderPass {
  /** What one pass read. */
  public record Pass(long rows, long cells, double seconds) {}

  private ReaderPass() {}

  /**
   * Restores {@code snapshot} under rekey's restore root (not timed), then reads it (timed) with
   * the settings and scan {@link RegionReader} gives a local snapshot read.
   */
  public static Pass read(Configuration conf, String snapshot, int threads) throws Exception {
    return pass(conf, snapshot, threads, false);
  }

  /**
   * {@link #read}, the rows streamed as cells into a counting sink as the jobs read them ({@link
   * SplitRows}), without Spark: the jobs' read pass apart from Spark's stage and tasks.
   */
  public static Pass stream(Configuration conf, String snapshot, int threads) throws Exception {
    return pass(conf, snapshot, threads, true);
  }

  private static Pass pass(Configuration conf, String snapshot, int threads, boolean cells)
      throws Exception {
    Job job = Job.getInstance(new Configuration(conf));
    Configuration jobConf = job.getConfiguration();
    SnapshotRegions.snapshotReadSettings(jobConf, true);
    jobConf.set(
        TableInputFormat.SCAN,
        TableMapReduceUtil.convertScanToString(RegionReader.snapshot(snapshot).scan()));
    FileSystem fs = CommonFSUtils.getRootDir(conf).getFileSystem(conf);
    Path restoreDir =
        new Path(RegionReader.defaultRestoreRoot(fs), snapshot + "-" + UUID.randomUUID());
    TableSnapshotInputFormat.setInput(job, snapshot, restoreDir);
    KeyRangeSnapshotInputFormat format = new KeyRangeSnapshotInputFormat();
    List<InputSplit> splits = format.getSplits(job);
    try {
      long t0 = System.nanoTime();
      long[] n =
          dev.rekey.bench.ParallelCounts.sum(
              splits, threads, s -> onSplit(format, s, jobConf, cells ? STREAMED : RESULTS));
      return new Pass(n[0], n[1], (System.nanoTime() - t0) / 1e9);
    } finally {
      fs.delete(restoreDir, true);
    }
  }

  /**
   * The read pass of a folding job: every partition's rows streamed into a sink that counts rows
   * and cells ({@link RegionRead#fold}); {rows, cells}.
   */
  public static long[] fold(RegionRead read) {
    long[] n = {0, 0};
    for (long[] part : read.fold(p -> new Counts()).collect()) {
      n[0] += part[0];
      n[1] += part[1];
    }
    return n;
  }

  private static final class Counts implements PartitionFold.Sink<long[]> {
    private final long[] n = {0, 0};

    @Override
    public void startRow(byte[] key) {}

    @Override
    public void cell(org.apache.hadoop.hbase.Cell c) {
      n[1]++;
    }

    @Override
    public void endRow() {
      n[0]++;
    }

    @Override
    public void dropRow() {
      throw new IllegalStateException("a benchmark table has no delete markers");
    }

    @Override
    public long[] result() {
      return n;
    }
  }

  /** What one split's open reader is read into: {rows, cells}. */
  private interface SplitPass {
    long[] read(RecordReader<ImmutableBytesWritable, Result> reader) throws Exception;
  }

  /** A split's rows streamed as cells, as the in-order write path reads them. */
  private static final SplitPass STREAMED =
      r -> {
        Counts counts = new Counts();
        new SplitRows(r).feed(counts, () -> false);
        return counts.result();
      };

  /** A split's rows as one Result each, as the table reader hands them. */
  private static final SplitPass RESULTS =
      r -> {
        long rows = 0;
        long cells = 0;
        while (r.nextKeyValue()) {
          rows++;
          cells += r.getCurrentValue().size();
        }
        return new long[] {rows, cells};
      };

  /** Opens the split's record reader as a task would, reads it with {@code pass}, closes it. */
  private static long[] onSplit(
      KeyRangeSnapshotInputFormat format, InputSplit split, Configuration conf, SplitPass pass)
      throws Exception {
    TaskAttemptContextImpl context = new TaskAttemptContextImpl(conf, new TaskAttemptID());
    try (RecordReader<ImmutableBytesWritable, Result> r =
        format.createRecordReader(split, context)) {
      r.initialize(split, context);
      return pass.read(r);
    }
  }
}

package dev.rekey.read;

import dev.rekey.common.RekeyException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormat;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.spark.SerializableWritable;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.CollectionAccumulator;
import scala.Tuple2;
import scala.collection.JavaConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * The cell paths of a region read ({@link RegionRead#fold}, {@link RegionRead#map}): the input
 * format's splits, one Spark partition each (placed where the split says its data is), each read by
 * the format's record reader into the job's sink ({@link SplitRows}) — streamed as cells where the
 * reader can, else as its Results. Spark's Hadoop RDD hands out a pair per row and no way to the
 * reader, so the splits are planned here.
 */
final class RegionFolds {
  private final Job job;
  private final Class<? extends InputFormat<ImmutableBytesWritable, Result>> format;
  private final String source;
  private final boolean fromSnapshot;
  private final CollectionAccumulator<RegionScan.PartitionCount> counts;
  private final List<InputSplit> splits;

  /**
   * The splits are planned now, while the read is opened (a snapshot's manifest is read here, and
   * its tasks read only the restored copy: a snapshot deleted after opening is caught after the
   * read); fewer than one per region is refused.
   */
  RegionFolds(
      Job job,
      Class<? extends InputFormat<ImmutableBytesWritable, Result>> format,
      String source,
      boolean fromSnapshot,
      CollectionAccumulator<RegionScan.PartitionCount> counts,
      int regions)
      throws IOException {
    this.job = job;
    this.format = format;
    this.source = source;
    this.fromSnapshot = fromSnapshot;
    this.counts = counts;
    try {
      splits = newFormat(format, job.getConfiguration()).getSplits(job);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while planning the splits", e);
    }
    if (splits.size() < regions) {
      throw RekeyException.cannot(
          "Cannot read %s: planned %s splits for %s regions (at least one per"
              + " region). Check that no region is offline.",
          source, splits.size(), regions);
    }
  }

  /** The splits planned: one partition each in {@link #fold} and {@link #map}. */
  int splitCount() {
    return splits.size();
  }

  /**
   * Each partition's rows folded into one total: {@link #map} with a sink that hands on its total
   * after the last row (and never pauses the read).
   */
  <T> JavaRDD<T> fold(JavaSparkContext jsc, PartitionFold<T> fold, int tasks) {
    return partitions(
        jsc,
        (i, out) -> {
          PartitionFold.Sink<T> sink = fold.open(i);
          return new Opened(sink, () -> out.accept(sink.result()), sink::abandon, false);
        },
        tasks);
  }

  /** Each partition's rows mapped into records, read as the records are taken. */
  <R> JavaRDD<R> map(JavaSparkContext jsc, PartitionMap<R> map, int tasks) {
    return partitions(
        jsc,
        (i, out) -> {
          PartitionMap.Sink sink = map.open(i, out);
          return new Opened(sink, sink::finish, sink::abandon, true);
        },
        tasks);
  }

  /**
   * A partition's sink, what to do after its last row, what on failure, and whether the read pauses
   * after a row that gave records (a map) or never (a fold: its one total comes at the end, and a
   * check per row cost ~3% of a streamed read).
   */
  record Opened(CellSink rows, Runnable finish, Runnable abandon, boolean pauses) {}

  /** Opens a partition's sink, handing its records to {@code out}. */
  interface Opener<R> extends java.io.Serializable {
    Opened open(int partition, java.util.function.Consumer<R> out);
  }

  /**
   * The splits in at most {@code tasks} partitions, each a run of consecutive splits read one after
   * the other in key order ({@link KeyOrderRuns#runOf}); one split each when {@code tasks} is at
   * least their number.
   */
  private <R> JavaRDD<R> partitions(JavaSparkContext jsc, Opener<R> opener, int tasks) {
    int runs = Math.max(1, Math.min(tasks, splits.size()));
    List<Tuple2<Run, scala.collection.Seq<String>>> placed = new ArrayList<>(runs);
    for (int p = 0; p < splits.size(); p++) {
      InputSplit s = splits.get(p);
      int run = KeyOrderRuns.runOf(p, splits.size(), runs);
      if (run == placed.size()) {
        List<String> hosts; // as Spark's Hadoop RDD places a split: its hosts but "localhost"
        try {
          hosts = Arrays.stream(s.getLocations()).filter(h -> !"localhost".equals(h)).toList();
        } catch (IOException | InterruptedException e) {
          hosts = List.of();
        }
        placed.add(
            new Tuple2<>(
                new Run(p, new ArrayList<>()), JavaConverters.asScalaBuffer(hosts).toSeq()));
      } else if (placed.get(run)._2().nonEmpty()) {
        // a run of several splits, as Spark coalesces them for rows in key order: no one place
        placed.set(
            run,
            new Tuple2<>(
                placed.get(run)._1(), JavaConverters.asScalaBuffer(List.<String>of()).toSeq()));
      }
      placed.get(run)._1().splits().add(new SerializableWritable<>((Writable) s));
    }
    ClassTag<Run> tag = ClassTag$.MODULE$.apply(Run.class);
    Broadcast<SerializableWritable<Configuration>> conf =
        jsc.broadcast(new SerializableWritable<>(job.getConfiguration()));
    Class<? extends InputFormat<ImmutableBytesWritable, Result>> fmt = format;
    String src = source;
    boolean snapshot = fromSnapshot;
    CollectionAccumulator<RegionScan.PartitionCount> out = counts;
    return new JavaRDD<>(jsc.sc().makeRDD(JavaConverters.asScalaBuffer(placed).toSeq(), tag), tag)
        .mapPartitionsWithIndex(
            (i, it) ->
                new PartitionRows<>(i, it, opener, conf.value().value(), fmt, src, snapshot, out),
            true);
  }

  /** Consecutive splits one task reads in order, from split {@code first}. */
  private record Run(int first, List<SerializableWritable<Writable>> splits)
      implements java.io.Serializable {}

  private static InputFormat<ImmutableBytesWritable, Result> newFormat(
      Class<? extends InputFormat<ImmutableBytesWritable, Result>> format, Configuration conf) {
    return org.apache.hadoop.util.ReflectionUtils.newInstance(format, conf);
  }

  /**
   * A partition's records: its runs' splits read into its sink, split after split, as far as it
   * takes for the next record (a fold's one total: the whole partition in one go). Rows are counted
   * per split, as {@link RegionRead#rows()} counts its partitions: rows scanned per region. A
   * failure HBase raised over what it refuses to read is named; on any failure the sink is told and
   * the open reader closed, as it is when the task ends with records not taken.
   */
  private static final class PartitionRows<R> implements java.util.Iterator<R> {
    private final java.util.ArrayDeque<R> ready = new java.util.ArrayDeque<>();
    private final java.util.function.BooleanSupplier pause;
    private final java.util.Iterator<Run> runs;
    private final Opened sink;
    private final Configuration conf;
    private final Class<? extends InputFormat<ImmutableBytesWritable, Result>> format;
    private final String source;
    private final boolean snapshot;
    private final CollectionAccumulator<RegionScan.PartitionCount> counts;
    private java.util.Iterator<SerializableWritable<Writable>> splits =
        java.util.Collections.emptyIterator();
    private int at; // the split being read, numbered among all the read's splits
    private RecordReader<ImmutableBytesWritable, Result> reader; // the split's, open
    private SplitRows rows;
    private byte[] regionStart; // the split's region's start key, if the split names its region
    private boolean finished;

    PartitionRows(
        int partition,
        java.util.Iterator<Run> runs,
        Opener<R> opener,
        Configuration conf,
        Class<? extends InputFormat<ImmutableBytesWritable, Result>> format,
        String source,
        boolean snapshot,
        CollectionAccumulator<RegionScan.PartitionCount> counts) {
      this.runs = runs;
      this.conf = conf;
      this.format = format;
      this.source = source;
      this.snapshot = snapshot;
      this.counts = counts;
      this.sink = opener.open(partition, ready::add);
      this.pause = sink.pauses() ? () -> !ready.isEmpty() : () -> false;
      org.apache.spark.TaskContext task = org.apache.spark.TaskContext.get();
      if (task != null) {
        task.addTaskCompletionListener((org.apache.spark.TaskContext t) -> closeReader());
      }
    }

    @Override
    public boolean hasNext() {
      try {
        while (ready.isEmpty() && !finished) {
          advance();
        }
        return !ready.isEmpty();
      } catch (Exception e) {
        release(e);
        RekeyException named = UnreadableRows.named(e, source, snapshot);
        throw named != null ? named : UnreadableRows.sneaky(e);
      } catch (Error e) {
        release(e);
        throw e;
      }
    }

    /** After a failure: the open reader closed and the sink told, neither hiding {@code e}. */
    private void release(Throwable e) {
      try {
        closeReader();
      } catch (RuntimeException closing) {
        e.addSuppressed(closing);
      }
      try {
        sink.abandon().run();
      } catch (RuntimeException abandoning) {
        e.addSuppressed(abandoning);
      }
    }

    @Override
    public R next() {
      if (!hasNext()) {
        throw new java.util.NoSuchElementException();
      }
      return ready.poll();
    }

    private void advance() throws Exception {
      if (rows == null) {
        if (!splits.hasNext()) {
          if (!runs.hasNext()) {
            finished = true;
            sink.finish().run();
            return;
          }
          Run run = runs.next();
          at = run.first();
          splits = run.splits().iterator();
          return;
        }
        InputSplit split = (InputSplit) splits.next().value();
        TaskAttemptContextImpl context = new TaskAttemptContextImpl(conf, new TaskAttemptID());
        regionStart =
            split instanceof TableSnapshotInputFormat.TableSnapshotRegionSplit r
                ? r.getRegion().getStartKey()
                : null;
        reader = newFormat(format, conf).createRecordReader(split, context);
        reader.initialize(split, context);
        rows = new SplitRows(reader);
      }
      if (!rows.feed(sink.rows(), pause)) {
        // counted before the reader is closed: a streaming reader forgets its count then
        counts.add(
            new RegionScan.PartitionCount(
                at++, rows.firstKey(), rows.rows(), regionStart, rows.storeFiles()));
        closeReader();
        rows = null;
      }
    }

    private void closeReader() {
      RecordReader<ImmutableBytesWritable, Result> r = reader;
      reader = null;
      if (r != null) {
        try {
          r.close();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
    }
  }
}

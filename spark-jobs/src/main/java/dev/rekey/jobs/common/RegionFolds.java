package dev.rekey.jobs.common;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
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
 * The fold path of a region read ({@link RegionRead#fold}): the input format's splits, one Spark
 * partition each (placed where the split says its data is), each read by the format's record reader
 * into the job's sink — streamed as cells where the reader can ({@link StreamsCells}), else as its
 * Results, consecutive parts of a row joined as {@link WholeRows} joins them. Spark's Hadoop RDD
 * hands out a pair per row and no way to the reader, so the splits are planned here.
 */
final class RegionFolds {
  private final Job job;
  private final Class<? extends InputFormat<ImmutableBytesWritable, Result>> format;
  private final String source;
  private final boolean fromSnapshot;
  private final CollectionAccumulator<RegionScan.PartitionCount> counts;
  private List<InputSplit> splits; // planned on first use; a snapshot's when the read is opened

  /**
   * A snapshot's splits are planned now, while the read is opened: its manifest is read here, and
   * its tasks read only the restored copy (a snapshot deleted after opening is caught after the
   * read, as for {@link RegionRead#rows()}). A live table's are planned by the first fold.
   */
  RegionFolds(
      Job job,
      Class<? extends InputFormat<ImmutableBytesWritable, Result>> format,
      String source,
      boolean fromSnapshot,
      CollectionAccumulator<RegionScan.PartitionCount> counts)
      throws IOException {
    this.job = job;
    this.format = format;
    this.source = source;
    this.fromSnapshot = fromSnapshot;
    this.counts = counts;
    if (fromSnapshot) {
      splits();
    }
  }

  private List<InputSplit> splits() throws IOException {
    if (splits == null) {
      try {
        splits = newFormat(format, job.getConfiguration()).getSplits(job);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while planning the splits", e);
      }
    }
    return splits;
  }

  /**
   * The splits in at most {@code tasks} partitions, each a run of consecutive splits read one after
   * the other in key order ({@link KeyOrderRuns#runOf}); one split each when {@code tasks} is at
   * least their number.
   */
  <T> JavaRDD<T> fold(JavaSparkContext jsc, PartitionFold<T> fold, int regions, int tasks) {
    List<InputSplit> splits;
    try {
      splits = splits();
    } catch (IOException | RuntimeException e) {
      RekeyException named = UnreadableRows.named(e, source, fromSnapshot);
      if (named != null) {
        throw named;
      }
      throw new RekeyException("Cannot read " + source + ": " + e.getMessage(), e);
    }
    if (splits.size() < regions) {
      throw new RekeyException(
          "Cannot read "
              + source
              + ": planned "
              + splits.size()
              + " splits for "
              + regions
              + " regions (at least one per region). Check that no region is offline.");
    }
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
            (i, it) -> {
              PartitionFold.Sink<T> sink = fold.open(i);
              try {
                while (it.hasNext()) {
                  Run run = it.next();
                  int at = run.first();
                  for (SerializableWritable<Writable> split : run.splits()) {
                    // counted per split, as rows() counts its partitions: rows scanned per region
                    Counted counted = new Counted(sink);
                    read(
                        (InputSplit) split.value(),
                        conf.value().value(),
                        fmt,
                        counted,
                        src,
                        snapshot);
                    out.add(new RegionScan.PartitionCount(at++, counted.firstKey, counted.rows));
                  }
                }
                return List.of(sink.result()).iterator();
              } catch (Throwable e) {
                sink.abandon();
                throw e;
              }
            },
            true);
  }

  /** Consecutive splits one task reads in order, from split {@code first}. */
  private record Run(int first, List<SerializableWritable<Writable>> splits)
      implements java.io.Serializable {}

  private static InputFormat<ImmutableBytesWritable, Result> newFormat(
      Class<? extends InputFormat<ImmutableBytesWritable, Result>> format, Configuration conf) {
    return org.apache.hadoop.util.ReflectionUtils.newInstance(format, conf);
  }

  /** One split into the sink; a failure HBase raised over what it refuses to read is named. */
  private static void read(
      InputSplit split,
      Configuration conf,
      Class<? extends InputFormat<ImmutableBytesWritable, Result>> format,
      CellSink sink,
      String source,
      boolean snapshot)
      throws Exception {
    TaskAttemptContextImpl context = new TaskAttemptContextImpl(conf, new TaskAttemptID());
    try (RecordReader<ImmutableBytesWritable, Result> reader =
        newFormat(format, conf).createRecordReader(split, context)) {
      reader.initialize(split, context);
      if (!(reader instanceof StreamsCells cells) || !cells.stream(sink)) {
        feed(reader, sink);
      }
    } catch (Exception e) {
      RekeyException named = UnreadableRows.named(e, source, snapshot);
      throw named != null ? named : e;
    }
  }

  /** A reader's Results into the sink, consecutive Results of one row as one row. */
  static void feed(RecordReader<ImmutableBytesWritable, Result> reader, CellSink sink)
      throws IOException, InterruptedException {
    byte[] open = null; // the row the sink has started
    while (reader.nextKeyValue()) {
      Cell[] cells = reader.getCurrentValue().rawCells();
      if (cells == null || cells.length == 0) {
        continue;
      }
      if (open == null || !CellUtil.matchingRows(cells[0], open)) {
        if (open != null) {
          sink.endRow();
        }
        open = CellUtil.cloneRow(cells[0]);
        sink.startRow(open);
      }
      for (Cell c : cells) {
        sink.cell(c);
      }
    }
    if (open != null) {
      sink.endRow();
    }
  }

  /** Counts the rows the sink got and keeps the first one's key: rows scanned per region. */
  private static final class Counted implements CellSink {
    private final CellSink sink;
    private byte[] key;
    long rows;
    byte[] firstKey;

    Counted(CellSink sink) {
      this.sink = sink;
    }

    @Override
    public void startRow(byte[] k) {
      key = k;
      sink.startRow(k);
    }

    @Override
    public void cell(Cell c) {
      sink.cell(c);
    }

    @Override
    public void endRow() {
      if (rows++ == 0) {
        firstKey = key.clone();
      }
      sink.endRow();
    }

    @Override
    public void dropRow() {
      sink.dropRow();
    }
  }
}

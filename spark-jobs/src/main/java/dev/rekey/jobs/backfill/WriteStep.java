package dev.rekey.jobs.backfill;

import dev.rekey.jobs.common.Clusters;
import dev.rekey.jobs.common.HBaseConfigs;
import dev.rekey.jobs.common.JobPhase;
import dev.rekey.jobs.read.PartitionFold;
import dev.rekey.jobs.read.PartitionMap;
import dev.rekey.jobs.read.RegionRead;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * The write (run layer): reads the snapshot, rekeys every row and writes the target's HFiles into
 * the staging dir along the plan's path — streamed in source order, or sorted by target key through
 * Spark's sort shuffle first, into {@link InOrderHFiles} either way — counting as it goes. What the
 * counts mean, and whether they allow a load, is {@link WriteOutcome}'s.
 *
 * <p>The snapshot is read on {@code clusters.old()}, the HFiles written for {@code clusters.neu()}.
 */
record WriteStep(SparkSession spark, Clusters clusters, Consumer<String> progress) {
  /** What the write's tasks reported, and the HFiles of the attempts Spark kept. */
  record Written(RowCounters counters, WriteTally tally, List<InOrderHFiles.WrittenFile> files) {}

  Written write(TargetRun run) throws IOException {
    BackfillOptions o = run.options();
    BackfillPlan plan = run.plan();
    Staging staging = run.staging();
    RegionBoundaries live = run.live();
    TableDescriptor target = run.target();
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    RowCounters counters = RowCounters.of(jsc.sc(), "backfill.", run, clusters.neu());
    WriteTally tally = WriteTally.register(jsc.sc(), "backfill.");
    Map<String, String> confMap = HBaseConfigs.toMap(clusters.neu());
    String quarantineDir = staging.quarantine().toString();

    progress.accept("Write path: " + plan.path().describe());
    if (!plan.tiers().reason().isEmpty()) {
      progress.accept("Time tiers: " + plan.tiers().describe() + "; " + plan.tiers().reason());
    }
    long maxFile = PlanReader.maxFileSize(target, clusters.neu());
    InOrderHFiles writer =
        new InOrderHFiles(
            new HFileSlots(live, run.salted(), maxFile, run.plan().tiers()),
            target,
            confMap,
            staging.attempts());
    List<InOrderHFiles.WrittenFile> files;
    try (RegionRead rows = SourceRead.of(o, plan).open(jsc, clusters.old())) {
      if (plan.path().inSourceOrder()) {
        int tasks = Math.min(plan.path().writeTasks(), rows.partitions());
        progress.accept(
            String.format(
                "Reading snapshot %s (%d splits) in %d tasks, writing HFiles for %d regions to %s",
                o.sourceSnapshot(), rows.partitions(), tasks, live.count(), staging.attempts()));
        // each task's rows streamed as cells, each copied once under its target key and written
        try (JobPhase phase =
            JobPhase.start(
                jsc.sc(),
                "backfill: read snapshot %s and write HFiles for %s",
                o.sourceSnapshot(),
                JobPhase.count(live.count(), "region"))) {
          files =
              rows
                  .foldInKeyOrder(
                      tasks, new StreamedWrite(writer, counters, quarantineDir, confMap, tally))
                  .collect()
                  .stream()
                  .flatMap(List::stream)
                  .toList();
        }
      } else {
        int k = o.splitsPerRegion();
        progress.accept(
            String.format(
                "Reading snapshot %s, writing HFiles for %d regions x %d to %s",
                o.sourceSnapshot(), live.count(), k, staging.attempts()));
        TargetPartitioner partitioner = new TargetPartitioner(live, k);
        // each source row streamed as cells, copied under its target key as it passes
        JavaPairRDD<byte[], byte[]> packed =
            JavaPairRDD.fromJavaRDD(rows.map(new ShuffledRows(counters, quarantineDir, confMap)));
        // the shuffle (whole rows, to their target partition) and the sort by target key both spill
        // to disk: a region never has to fit in memory; each sorted partition then streams into the
        // same writer as the in-order path
        try (JobPhase phase =
            JobPhase.start(
                jsc.sc(),
                "backfill: read snapshot %s, sort by target key, write HFiles for %s x %d",
                o.sourceSnapshot(),
                JobPhase.count(live.count(), "region"),
                k)) {
          files =
              TargetSort.of(packed, partitioner)
                  .mapPartitions(it -> writer.write(new SortedRows(it, 0), tally).iterator())
                  .collect();
        }
      }
    }
    return new Written(counters, tally, files);
  }

  /**
   * The in-order write over the read's cell stream: per task, one {@link StreamRekeyer} into one
   * {@link InOrderHFiles.Task}; its total is the files the task closed.
   */
  private record StreamedWrite(
      InOrderHFiles writer,
      RowCounters counters,
      String quarantineDir,
      Map<String, String> confMap,
      WriteTally tally)
      implements PartitionFold<List<InOrderHFiles.WrittenFile>> {
    @Override
    public Sink<List<InOrderHFiles.WrittenFile>> open(int partition) {
      InOrderHFiles.Task task;
      try {
        task = writer.open(tally);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      // a failed attempt's streams are released by the fold (abandon); its dir by the driver
      return new StreamRekeyer<>(
          new RowRekeyer(counters, quarantine(quarantineDir, confMap)), task);
    }
  }

  private static QuarantineWriter quarantine(String dir, Map<String, String> confMap) {
    TaskContext tc = TaskContext.get();
    return new QuarantineWriter(
        dir, tc.partitionId(), tc.taskAttemptId(), HBaseConfigs.fromMap(confMap));
  }

  /**
   * The sorted path's map side over the read's cell stream: per partition, one {@link
   * StreamRekeyer} whose rows go out as (target key, packed row) records for the sort shuffle.
   */
  private record ShuffledRows(
      RowCounters counters, String quarantineDir, Map<String, String> confMap)
      implements PartitionMap<Tuple2<byte[], byte[]>> {
    @Override
    public Sink open(int partition, Consumer<Tuple2<byte[], byte[]>> out) {
      return new StreamRekeyer<Void>(
          new RowRekeyer(counters, quarantine(quarantineDir, confMap)), ShuffledRow.of(out));
    }
  }

  /**
   * A sorted partition's (target key, packed row) records as rows already under their key; the
   * shuffle key's first {@code skip} bytes are not the target key's (a run of several targets
   * prefixes the target's index: {@link FanOutWrite}).
   */
  static final class SortedRows implements Iterator<RowRekeyer.Rekeyed> {
    private final Iterator<Tuple2<byte[], byte[]>> in;
    private final int skip;

    SortedRows(Iterator<Tuple2<byte[], byte[]>> in, int skip) {
      this.in = in;
      this.skip = skip;
    }

    @Override
    public boolean hasNext() {
      return in.hasNext();
    }

    @Override
    public RowRekeyer.Rekeyed next() {
      Tuple2<byte[], byte[]> t = in.next();
      byte[] packed = t._2();
      byte[] key = skip == 0 ? t._1() : Arrays.copyOfRange(t._1(), skip, t._1().length);
      return new RowRekeyer.Rekeyed(
          PackedRow.sourceKey(packed), key, PackedRow.time(packed), PackedRow.cells(packed));
    }
  }
}

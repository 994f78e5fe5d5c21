package dev.rekey.jobs.backfill;

import dev.rekey.jobs.common.Clusters;
import dev.rekey.jobs.common.HBaseConfigs;
import dev.rekey.jobs.common.JobPhase;
import dev.rekey.jobs.read.CellSink;
import dev.rekey.jobs.read.PartitionFold;
import dev.rekey.jobs.read.PartitionMap;
import dev.rekey.jobs.read.RegionRead;
import dev.rekey.jobs.read.RegionReader;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.CollectionAccumulator;
import scala.Tuple2;

/**
 * The write of several targets from one read of the snapshot (run layer): every source row is
 * streamed once, as cells, into one {@link StreamRekeyer} per target, each copying the cells under
 * its own target key. A target whose layout keeps the source's order (a salt added) is written in
 * the read's own tasks, as {@link WriteStep}'s in-order path does; the others' rows go out as
 * (target, target key, packed row) records through one sort shuffle partitioned by (target,
 * region), each partition then written as the sorted path writes. Nothing of the snapshot is kept
 * between targets: no second read, no cached copy.
 *
 * <p>Each target keeps its own counters, quarantine, collisions, staging dir and files, so {@link
 * WriteOutcome} checks each one's write as if it had been alone.
 *
 * <p>The snapshot is read on {@code clusters.old()}, the HFiles written for {@code clusters.neu()}.
 */
record FanOutWrite(SparkSession spark, Clusters clusters, Consumer<String> progress) {

  /** What one target's share of the tasks needs: serializable, shipped to every task. */
  private record Target(
      boolean inOrder,
      InOrderHFiles writer,
      Map<String, String> conf,
      RowCounters counters,
      String quarantineDir,
      WriteTally tally)
      implements Serializable {}

  /** The written targets' reports, in the order of {@code runs}. */
  List<WriteStep.Written> write(List<TargetRun> runs) throws IOException {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Map<String, String> confMap = HBaseConfigs.toMap(clusters.neu());
    List<Target> targets = new ArrayList<>();
    for (TargetRun run : runs) {
      String table = run.options().targetTable();
      long maxFile = PlanReader.maxFileSize(run.target(), clusters.neu());
      targets.add(
          new Target(
              run.plan().path().inSourceOrder(),
              new InOrderHFiles(
                  new HFileSlots(run.live(), run.salted(), maxFile, run.plan().tiers()),
                  run.target(),
                  confMap,
                  run.staging().attempts()),
              confMap,
              RowCounters.of(jsc.sc(), "backfill." + table + ".", run, clusters.neu()),
              run.staging().quarantine().toString(),
              WriteTally.register(jsc.sc(), "backfill." + table + ".")));
      progress.accept(String.format("Write path of %s: %s", table, run.plan().path().describe()));
      TimeTiers tiers = run.plan().tiers();
      if (!tiers.reason().isEmpty()) {
        progress.accept(
            String.format("Time tiers of %s: %s; %s", table, tiers.describe(), tiers.reason()));
      }
    }
    // the read as the in-order targets want it (their write tasks bound the files per region); the
    // versions any target keeps
    TargetRun lead =
        runs.stream().filter(r -> r.plan().path().inSourceOrder()).findFirst().orElse(runs.get(0));
    int versions = runs.stream().mapToInt(r -> r.plan().readVersions()).max().orElseThrow();
    // the sorted targets' rows are re-keyed and shuffled in the read's tasks: as many as their own
    // run would read with (up to the read's splits and the in-order targets' file limit)
    int sortedReadTasks =
        runs.stream()
            .filter(r -> !r.plan().path().inSourceOrder())
            .mapToInt(r -> r.plan().minReadTasks())
            .max()
            .orElse(0);
    RegionReader reader = SourceRead.of(lead.options(), lead.plan()).versions(versions);
    List<List<InOrderHFiles.WrittenFile>> files = new ArrayList<>();
    runs.forEach(r -> files.add(new ArrayList<>()));
    String snapshot = lead.options().sourceSnapshot();
    try (RegionRead rows = reader.open(jsc, clusters.old())) {
      List<Integer> inOrderTasks = new ArrayList<>();
      List<Integer> inOrderMax = new ArrayList<>();
      int maxFiles =
          clusters
              .neu()
              .getInt(WritePath.MAX_FILES_PER_REGION_KEY, WritePath.DEFAULT_MAX_FILES_PER_REGION);
      for (TargetRun r : runs) {
        if (r.plan().path().inSourceOrder()) {
          inOrderTasks.add(r.plan().path().writeTasks());
          inOrderMax.add(WritePath.maxInOrderTasks(r.live(), r.options().targetLayout(), maxFiles));
        }
      }
      int tasks =
          WritePath.fanOutTasks(
              inOrderTasks,
              inOrderMax,
              sortedReadTasks,
              rows.partitions(),
              jsc.defaultParallelism());
      boolean anySorted = targets.stream().anyMatch(t -> !t.inOrder());
      progress.accept(
          String.format(
              "Reading snapshot %s once (%d splits) in %d tasks for %d targets: %s",
              snapshot, rows.partitions(), tasks, runs.size(), describe(runs)));
      try (JobPhase phase =
          JobPhase.start(
              jsc.sc(),
              "backfill: read snapshot %s once and write HFiles for %s",
              snapshot,
              JobPhase.count(runs.size(), "target"))) {
        if (!anySorted) {
          // every target in order: one fold, each task's files per target its total
          for (List<List<InOrderHFiles.WrittenFile>> perTask :
              rows.foldInKeyOrder(tasks, new Folded(targets)).collect()) {
            for (int t = 0; t < perTask.size(); t++) {
              files.get(t).addAll(perTask.get(t));
            }
          }
        } else {
          writeWithShuffle(jsc, rows, tasks, runs, targets, files);
        }
      }
    }
    List<WriteStep.Written> out = new ArrayList<>();
    for (int t = 0; t < targets.size(); t++) {
      Target x = targets.get(t);
      out.add(new WriteStep.Written(x.counters(), x.tally(), files.get(t)));
    }
    return out;
  }

  /**
   * The read's tasks write the in-order targets and hand the sorted targets' rows to the sort
   * shuffle; the sorted partitions are written after it. The in-order files come back through an
   * accumulator (the read's tasks are the shuffle's map side, whose results Spark does not return):
   * only successful attempts add to it, and where Spark ran a partition twice (a stage retried) one
   * attempt's files are kept.
   */
  private void writeWithShuffle(
      JavaSparkContext jsc,
      RegionRead rows,
      int tasks,
      List<TargetRun> runs,
      List<Target> targets,
      List<List<InOrderHFiles.WrittenFile>> files) {
    CollectionAccumulator<Tuple2<Integer, InOrderHFiles.WrittenFile>> inOrderFiles =
        jsc.sc().collectionAccumulator("backfill.inOrderFiles");
    List<Integer> sorted = new ArrayList<>();
    List<TargetPartitioner> partitioners = new ArrayList<>();
    for (int t = 0; t < runs.size(); t++) {
      if (!targets.get(t).inOrder()) {
        sorted.add(t);
        partitioners.add(
            new TargetPartitioner(runs.get(t).live(), runs.get(t).options().splitsPerRegion()));
      }
    }
    ByTarget partitioner = new ByTarget(sorted, partitioners);
    JavaPairRDD<byte[], byte[]> packed =
        JavaPairRDD.fromJavaRDD(rows.mapInKeyOrder(tasks, new Mapped(targets, inOrderFiles)));
    List<Tuple2<Integer, InOrderHFiles.WrittenFile>> sortedFiles =
        TargetSort.of(packed, partitioner)
            .mapPartitionsWithIndex(
                (p, it) -> {
                  int t = partitioner.targetOf(p);
                  Target x = targets.get(t);
                  return x.writer().write(new WriteStep.SortedRows(it, 1), x.tally()).stream()
                      .map(f -> new Tuple2<>(t, f))
                      .iterator();
                },
                true)
            .collect();
    sortedFiles.forEach(f -> files.get(f._1()).add(f._2()));
    // one attempt's files per (target, partition): a partition run twice wrote its rows twice
    Map<String, String> keptAttempt = new TreeMap<>();
    for (Tuple2<Integer, InOrderHFiles.WrittenFile> f : inOrderFiles.value()) {
      Path attempt = new Path(f._2().path()).getParent().getParent(); // <attempt>/<family>/<file>
      String name = attempt.getName(); // p<partition>-a<attempt>-<task id>
      String partition = f._1() + "/" + name.substring(0, name.indexOf('-'));
      if (keptAttempt.putIfAbsent(partition, name) == null
          || keptAttempt.get(partition).equals(name)) {
        files.get(f._1()).add(f._2());
      }
    }
  }

  private static String describe(List<TargetRun> runs) {
    List<String> out = new ArrayList<>();
    for (TargetRun r : runs) {
      out.add(
          r.options().targetTable()
              + (r.plan().path().inSourceOrder() ? " in source order" : " sorted"));
    }
    return String.join(", ", out);
  }

  /** A task's sink per target, fed the same cells: the fan-out of one read. */
  private static class FanOut implements CellSink {
    final List<StreamRekeyer<?>> sinks;

    FanOut(List<StreamRekeyer<?>> sinks) {
      this.sinks = sinks;
    }

    @Override
    public void startRow(byte[] key) {
      for (StreamRekeyer<?> s : sinks) {
        s.startRow(key);
      }
    }

    @Override
    public void cell(org.apache.hadoop.hbase.Cell c) {
      for (StreamRekeyer<?> s : sinks) {
        s.cell(c);
      }
    }

    @Override
    public void endRow() {
      for (StreamRekeyer<?> s : sinks) {
        s.endRow();
      }
    }

    @Override
    public void dropRow() {
      for (StreamRekeyer<?> s : sinks) {
        s.dropRow();
      }
    }

    public void abandon() {
      for (StreamRekeyer<?> s : sinks) {
        s.abandon();
      }
    }
  }

  private static RowRekeyer rowRekeyer(Target t) {
    TaskContext tc = TaskContext.get();
    return new RowRekeyer(
        t.counters(),
        new QuarantineWriter(
            t.quarantineDir(),
            tc.partitionId(),
            tc.taskAttemptId(),
            HBaseConfigs.fromMap(t.conf())));
  }

  private static InOrderHFiles.Task open(Target t) {
    try {
      return t.writer().open(t.tally());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every target written in order: per task, one HFile writer per target. */
  private record Folded(List<Target> targets)
      implements PartitionFold<List<List<InOrderHFiles.WrittenFile>>> {
    @Override
    public Sink<List<List<InOrderHFiles.WrittenFile>>> open(int partition) {
      List<StreamRekeyer<?>> sinks = new ArrayList<>();
      for (Target t : targets) {
        sinks.add(new StreamRekeyer<>(rowRekeyer(t), FanOutWrite.open(t)));
      }
      return new FoldedSink(sinks);
    }
  }

  /** Every target's total is the files its HFile writer closed. */
  private static final class FoldedSink extends FanOut
      implements PartitionFold.Sink<List<List<InOrderHFiles.WrittenFile>>> {
    FoldedSink(List<StreamRekeyer<?>> sinks) {
      super(sinks);
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<List<InOrderHFiles.WrittenFile>> result() {
      List<List<InOrderHFiles.WrittenFile>> out = new ArrayList<>();
      for (StreamRekeyer<?> s : sinks) {
        out.add((List<InOrderHFiles.WrittenFile>) s.result());
      }
      return out;
    }
  }

  /**
   * Some targets sorted: per task, the in-order targets' HFile writers, and the sorted targets'
   * rows handed on as (target index byte | target key, packed row) records.
   */
  private record Mapped(
      List<Target> targets,
      CollectionAccumulator<Tuple2<Integer, InOrderHFiles.WrittenFile>> inOrderFiles)
      implements PartitionMap<Tuple2<byte[], byte[]>> {
    @Override
    public Sink open(int partition, Consumer<Tuple2<byte[], byte[]>> out) {
      List<StreamRekeyer<?>> sinks = new ArrayList<>();
      for (int i = 0; i < targets.size(); i++) {
        Target t = targets.get(i);
        if (t.inOrder()) {
          sinks.add(new StreamRekeyer<>(rowRekeyer(t), FanOutWrite.open(t)));
        } else {
          sinks.add(new StreamRekeyer<>(rowRekeyer(t), ShuffledRow.ofTarget(i, out)));
        }
      }
      return new MappedSink(sinks, targets, inOrderFiles);
    }
  }

  /** The in-order targets' files go to the accumulator; the sorted ones' rows went out already. */
  private static final class MappedSink extends FanOut implements PartitionMap.Sink {
    private final List<Target> targets;
    private final CollectionAccumulator<Tuple2<Integer, InOrderHFiles.WrittenFile>> inOrderFiles;

    MappedSink(
        List<StreamRekeyer<?>> sinks,
        List<Target> targets,
        CollectionAccumulator<Tuple2<Integer, InOrderHFiles.WrittenFile>> inOrderFiles) {
      super(sinks);
      this.targets = targets;
      this.inOrderFiles = inOrderFiles;
    }

    @Override
    public void finish() {
      for (int i = 0; i < sinks.size(); i++) {
        Object r = sinks.get(i).result();
        if (targets.get(i).inOrder()) {
          for (Object f : (List<?>) r) {
            inOrderFiles.add(new Tuple2<>(i, (InOrderHFiles.WrittenFile) f));
          }
        }
      }
    }
  }
}

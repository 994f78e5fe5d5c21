package dev.rekey.jobs.backfill.write;

import dev.rekey.common.Clusters;
import dev.rekey.common.JobPhase;
import dev.rekey.jobs.backfill.TargetRun;
import dev.rekey.jobs.backfill.plan.SourceRead;
import dev.rekey.jobs.backfill.plan.WritePath;
import dev.rekey.read.RegionRead;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.CollectionAccumulator;
import scala.Tuple2;

/**
 * The write (run layer) of one or several targets from one read of the snapshot: every source row
 * is streamed once, as cells, into one {@link StreamRekeyer} per target ({@link TargetSinks}), each
 * copying the cells under its own target key. A target whose layout keeps the source's order (a
 * salt added) is written in the read's own tasks, in source order; the others' rows go through one
 * sort shuffle ({@link SortedWrite}) and are written after it, each partition sorted. Nothing of
 * the snapshot is kept between targets: no second read, no cached copy. One target is the case n =
 * 1: the same tasks, files, lines and job descriptions as a run of its own.
 *
 * <p>Each target keeps its own counters, quarantine, collisions, staging dir and files, so {@link
 * WriteOutcome} checks each one's write as if it had been alone. The snapshot is read on {@code
 * clusters.old()}, the HFiles written for {@code clusters.neu()}.
 */
public record WriteStep(SparkSession spark, Clusters clusters, Consumer<String> progress) {

  /** The written targets' reports, in the order of {@code runs}. */
  public List<Written> write(List<TargetRun> runs) throws IOException {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    WriteLines lines = new WriteLines(runs, progress);
    List<TargetWriter> targets = new ArrayList<>();
    for (TargetRun run : runs) {
      String prefix = lines.accumulatorPrefix(run);
      targets.add(
          TargetWriter.of(
              run,
              clusters.neu(),
              RowCounters.of(jsc.sc(), prefix, run, clusters.neu()),
              WriteTally.register(jsc.sc(), prefix)));
      lines.path(run);
    }
    // the read as the in-order targets want it (their write tasks bound the files per region); the
    // versions any target keeps
    TargetRun lead =
        runs.stream().filter(r -> r.plan().path().inSourceOrder()).findFirst().orElse(runs.get(0));
    int versions = runs.stream().mapToInt(r -> r.plan().readVersions()).max().orElseThrow();
    List<List<InOrderHFiles.WrittenFile>> files = new ArrayList<>();
    runs.forEach(r -> files.add(new ArrayList<>()));
    try (RegionRead rows =
        SourceRead.of(lead.options(), lead.plan()).versions(versions).open(jsc, clusters.old())) {
      int tasks = tasks(runs, rows.partitions(), jsc.defaultParallelism());
      lines.reading(rows.partitions(), tasks);
      try (JobPhase phase = lines.phase(jsc.sc())) {
        if (targets.stream().allMatch(TargetWriter::inOrder)) {
          // every target in order: one fold, each task's files per target its total
          for (List<List<InOrderHFiles.WrittenFile>> perTask :
              rows.foldInKeyOrder(tasks, new TargetSinks.Folded(targets)).collect()) {
            for (int t = 0; t < perTask.size(); t++) {
              files.get(t).addAll(perTask.get(t));
            }
          }
        } else {
          writeWithShuffle(jsc, rows, tasks, runs, targets, files);
        }
      }
    }
    List<Written> out = new ArrayList<>();
    for (int t = 0; t < targets.size(); t++) {
      TargetWriter x = targets.get(t);
      out.add(new Written(x.counters(), x.tally(), files.get(t)));
    }
    return out;
  }

  /**
   * The read's tasks ({@link WritePath#fanOutTasks}): one target in order, its write tasks; one
   * sorted, every split; several, the in-order targets' tasks raised for the sorted ones.
   */
  private int tasks(List<TargetRun> runs, int splits, int cores) {
    List<Integer> inOrderTasks = new ArrayList<>();
    List<Integer> inOrderMax = new ArrayList<>();
    int maxFiles =
        clusters
            .neu()
            .getInt(WritePath.MAX_FILES_PER_REGION_KEY, WritePath.DEFAULT_MAX_FILES_PER_REGION);
    // the sorted targets' rows are re-keyed and shuffled in the read's tasks: as many as their own
    // run would read with (up to the read's splits and the in-order targets' file limit)
    int sortedReadTasks = 0;
    for (TargetRun r : runs) {
      if (r.plan().path().inSourceOrder()) {
        inOrderTasks.add(r.plan().path().writeTasks());
        inOrderMax.add(WritePath.maxInOrderTasks(r.live(), r.options().targetLayout(), maxFiles));
      } else {
        sortedReadTasks = Math.max(sortedReadTasks, r.plan().minReadTasks());
      }
    }
    return WritePath.fanOutTasks(inOrderTasks, inOrderMax, sortedReadTasks, splits, cores);
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
      List<TargetWriter> targets,
      List<List<InOrderHFiles.WrittenFile>> files) {
    CollectionAccumulator<Tuple2<Integer, InOrderHFiles.WrittenFile>> inOrderFiles =
        jsc.sc().collectionAccumulator("backfill.inOrderFiles");
    SortedWrite sorted = new SortedWrite(runs, targets);
    JavaPairRDD<byte[], byte[]> packed =
        JavaPairRDD.fromJavaRDD(
            rows.mapInKeyOrder(
                tasks, new TargetSinks.Mapped(targets, sorted.keyedByIndex(), inOrderFiles)));
    sorted.write(packed, targets).forEach(f -> files.get(f._1()).add(f._2()));
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
}

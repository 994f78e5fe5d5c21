package dev.rekey.read;

import dev.rekey.common.RekeyException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.Result;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.CollectionAccumulator;

/**
 * An opened region-parallel read: the rows, how many regions and partitions, and the restore dir to
 * clean up.
 */
public final class RegionRead implements AutoCloseable {
  private final java.util.function.Supplier<JavaRDD<Result>> rowsFrom;
  private JavaRDD<Result> rows; // built on first use
  private final int regions;
  private final int partitions;
  private final Path restoreDir;
  private final Configuration conf;
  private final String reading;
  private final ReadPlan plan;
  private final List<byte[]> starts;
  private final List<byte[]> ends;
  private final CollectionAccumulator<RegionScan.PartitionCount> counts;
  private final RegionFolds folds;
  private final JavaSparkContext jsc;

  RegionRead(
      java.util.function.Supplier<JavaRDD<Result>> rows,
      int regions,
      int partitions,
      Path restoreDir,
      Configuration conf,
      String reading,
      ReadPlan plan,
      List<byte[]> starts,
      List<byte[]> ends,
      CollectionAccumulator<RegionScan.PartitionCount> counts,
      RegionFolds folds,
      JavaSparkContext jsc) {
    this.folds = folds;
    this.jsc = jsc;
    this.reading = reading;
    this.plan = plan;
    this.starts = List.copyOf(starts);
    this.ends = List.copyOf(ends);
    this.counts = counts;
    this.rowsFrom = rows;
    this.regions = regions;
    this.partitions = partitions;
    this.restoreDir = restoreDir;
    this.conf = conf;
  }

  /**
   * Whole rows as Results, one partition per region (x splits per region), in key order within a
   * partition: for code of one's own. The jobs read with {@link #fold} and {@link #map} (cells
   * streamed, no Result per row: docs/benchmarks.md).
   */
  public JavaRDD<Result> rows() {
    if (rows == null) {
      rows = rowsFrom.get();
    }
    return rows;
  }

  /**
   * Each partition's rows folded into one total, the rows streamed into {@code fold}'s sink as
   * cells: for jobs that keep no rows (stats, counts, digests) this skips the {@code Result} per
   * row, and a split of one family in one store file is read at nearly the raw HFile pass's speed.
   * Same partitions as {@link #rows()}, same rows; {@link #regionScans()} counts them too.
   */
  public <T> JavaRDD<T> fold(PartitionFold<T> fold) {
    return folds.fold(jsc, fold, Integer.MAX_VALUE);
  }

  /**
   * Each partition's rows mapped into records by {@code map}'s sink, the rows streamed into it as
   * cells and read as the records are taken (a row at a time: no partition held whole), so a job
   * that keeps its rows in a form of its own (a scan's row blocks) skips the {@code Result} per row
   * too. Same partitions and rows as {@link #fold}.
   */
  public <R> JavaRDD<R> map(PartitionMap<R> map) {
    return folds.map(jsc, map, Integer.MAX_VALUE);
  }

  /**
   * As {@link #fold}, in at most {@code tasks} partitions, each the rows of a run of consecutive
   * partitions read one after the other: still in key order within a partition.
   */
  public <T> JavaRDD<T> foldInKeyOrder(int tasks, PartitionFold<T> fold) {
    return folds.fold(jsc, fold, tasks);
  }

  /**
   * As {@link #map}, in at most {@code tasks} partitions of consecutive partitions read one after
   * the other, as {@link #foldInKeyOrder}: a backfill feeding several targets writes its in-order
   * targets' HFiles in these tasks and hands its sorted targets' rows on to a shuffle.
   */
  public <R> JavaRDD<R> mapInKeyOrder(int tasks, PartitionMap<R> map) {
    return folds.map(jsc, map, tasks);
  }

  public int regions() {
    return regions;
  }

  public int partitions() {
    return partitions;
  }

  /** The regions' start keys, in key order (a job's per-region counts are kept against these). */
  public List<byte[]> regionStarts() {
    return starts;
  }

  /** What is read and whether that loads the RegionServers, for the job's output. */
  public String reading() {
    return reading;
  }

  /** The key ranges read (or every key) and why. */
  public ReadPlan plan() {
    return plan;
  }

  /**
   * Per region in key order: the key ranges its task read and the rows its scanners returned. The
   * counts are those of partitions read to their end by the actions run so far: call it after the
   * job's pass over the rows ({@link #fold}, {@link #map} or {@link #rows()}).
   */
  public List<RegionScan> regionScans() {
    return RegionScan.place(starts, ends, plan, counts.value());
  }

  /** Removes the snapshot restore dir (it is not cleaned up by HBase). */
  @Override
  public void close() {
    if (restoreDir == null) {
      return;
    }
    try {
      restoreDir.getFileSystem(conf).delete(restoreDir, true);
    } catch (IOException e) {
      throw RekeyException.cannot(
          e,
          "Could not remove the snapshot restore dir %s: %s (remove it by hand)",
          restoreDir,
          e.getMessage());
    }
  }
}

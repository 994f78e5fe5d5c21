package dev.rekey.jobs.backfill.write;

import dev.rekey.jobs.backfill.KeyedRows;
import dev.rekey.jobs.backfill.TargetRun;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import scala.Tuple2;

/**
 * The sorted path's shuffle and write (run layer), for the rows of one or several sorted targets:
 * rows partitioned by (target, region × k), sorted by target key ({@link TargetSort}) and streamed
 * into each target's {@link InOrderHFiles}. A snapshot read ({@link WriteStep}) and a repair's rows
 * ({@link KeyedRows}) both write through it.
 *
 * <p>The shuffle key is the target key alone when one target is sorted; only several sorted targets
 * sharing the shuffle prefix it with the target's index ({@link ShuffledRow#ofTarget}), so a single
 * target's rows are partitioned and written without a copy of their key.
 */
public final class SortedWrite {
  private final List<Integer> sorted;
  private final Partitioner partitioner;

  /**
   * The shuffle of {@code targets}' sorted ones ({@code runs} in the same order), each into its
   * live regions × its splits per region.
   */
  public SortedWrite(List<TargetRun> runs, List<TargetWriter> targets) {
    this.sorted = new ArrayList<>();
    List<TargetPartitioner> partitioners = new ArrayList<>();
    for (int t = 0; t < targets.size(); t++) {
      if (!targets.get(t).inOrder()) {
        sorted.add(t);
        partitioners.add(
            new TargetPartitioner(runs.get(t).live(), runs.get(t).options().splitsPerRegion()));
      }
    }
    this.partitioner =
        sorted.size() == 1 ? partitioners.get(0) : new ByTarget(sorted, partitioners);
  }

  /** True when the map side keys target {@code t}'s rows by its index byte | target key. */
  boolean keyedByIndex() {
    return sorted.size() > 1;
  }

  /**
   * {@code packed}'s rows shuffled, sorted and written: each file with its target's index among
   * {@code targets}.
   */
  public List<Tuple2<Integer, InOrderHFiles.WrittenFile>> write(
      JavaPairRDD<byte[], byte[]> packed, List<TargetWriter> targets) {
    Partitioner p = partitioner;
    List<Integer> only = sorted;
    int skip = keyedByIndex() ? 1 : 0;
    return TargetSort.of(packed, p)
        .mapPartitionsWithIndex(
            (i, it) -> {
              int t = p instanceof ByTarget by ? by.targetOf(i) : only.get(0);
              return targets.get(t).writeSorted(it, skip).stream()
                  .map(f -> new Tuple2<>(t, f))
                  .iterator();
            },
            true)
        .collect();
  }
}

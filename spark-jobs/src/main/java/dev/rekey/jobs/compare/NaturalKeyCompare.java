package dev.rekey.jobs.compare;

import dev.rekey.jobs.backfill.write.TargetSort;
import dev.rekey.read.RegionRead;
import java.util.Set;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import scala.Tuple2;

/**
 * The natural-key compare of some time buckets of two sides (the Spark glue): each side's rows of
 * those buckets kept whole ({@link SideCells}), both sides joined by natural key and each key's
 * rows classified ({@link KeyDiff}). Reconcile's drill-down samples what it finds; repair decides
 * and writes each key's fix.
 *
 * <p>The rows travel as (natural key, packed row) bytes through the backfill's sort shuffle and
 * in-page sort ({@link TargetSort}; Java serialization of row objects was most of the compare's
 * time), and are paired per natural key as a full outer join pairs them ({@link KeyPairs}).
 */
public final class NaturalKeyCompare {
  /** At most this many shuffle partitions: the rows of a few mismatched buckets. */
  private static final int MAX_PARTITIONS = 8;

  private NaturalKeyCompare() {}

  /**
   * The natural keys of {@code buckets} whose rows differ, each with both sides' rows: lazy, one
   * Spark job per action on it.
   */
  public static JavaRDD<KeyDiff> differences(
      RegionRead oldRead,
      RowPlacer oldPlacer,
      RegionRead newRead,
      RowPlacer newPlacer,
      Set<Integer> buckets) {
    JavaPairRDD<byte[], byte[]> o = packed(oldRead, oldPlacer, buckets, PackedSideRow.OLD);
    JavaPairRDD<byte[], byte[]> n = packed(newRead, newPlacer, buckets, PackedSideRow.NEW);
    int parts = Math.max(1, Math.min(MAX_PARTITIONS, o.getNumPartitions() + n.getNumPartitions()));
    return TargetSort.of(o.union(n), new NaturalKeyPartitioner(parts))
        .mapPartitions(KeyPairs::new)
        .map(p -> KeyDiff.of(p[0], p[1]))
        .filter(d -> d.kind() != Difference.MATCH);
  }

  private static JavaPairRDD<byte[], byte[]> packed(
      RegionRead read, RowPlacer placer, Set<Integer> buckets, byte side) {
    return read.map(new SideCells(placer, buckets))
        .mapToPair(r -> new Tuple2<>(r.naturalKey(), PackedSideRow.pack(r, side)));
  }
}

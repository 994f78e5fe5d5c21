package dev.rekey.jobs.repair;

import dev.rekey.jobs.common.JobPhase;
import dev.rekey.jobs.reconcile.SideFold;
import dev.rekey.jobs.reconcile.SideTally;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * The re-check after a repair, first by digest: both sides of the repaired buckets tallied as
 * {@code reconcile --digest} tallies them (rows, cells and the summed digest of every cell and
 * version, per bucket; no row shuffled), and only the buckets that still differ compared again cell
 * by cell for their reasons. A bucket whose rows, cells and digests are equal on both sides holds
 * the same cells under the same natural keys.
 */
final class DigestRecheck {
  private DigestRecheck() {}

  /** The buckets of {@code reads} whose tallies differ between the sides. */
  static TreeSet<Integer> differing(JavaSparkContext jsc, BucketReads reads, int bucketCount) {
    try (JobPhase p =
        JobPhase.start(jsc.sc(), "repair: re-check %d bucket(s) by digest", reads.buckets.size())) {
      JavaRDD<Tuple2<Boolean, SideTally>> old =
          reads
              .oldRead
              .fold(new SideFold(reads.oldClassifier, bucketCount))
              .map(t -> new Tuple2<>(true, t));
      JavaRDD<Tuple2<Boolean, SideTally>> neu =
          reads
              .newRead
              .fold(new SideFold(reads.newClassifier, bucketCount))
              .map(t -> new Tuple2<>(false, t));
      // one job over both reads; a tally per partition, merged per side in the driver
      SideTally oldSum = new SideTally(bucketCount);
      SideTally newSum = new SideTally(bucketCount);
      for (Tuple2<Boolean, SideTally> t : old.union(neu).collect()) {
        (t._1() ? oldSum : newSum).merge(t._2());
      }
      return differing(oldSum, newSum, reads.buckets);
    }
  }

  /** Pure: the buckets of {@code buckets} whose rows, cells or digest differ. */
  static TreeSet<Integer> differing(SideTally old, SideTally neu, Set<Integer> buckets) {
    TreeSet<Integer> out = new TreeSet<>();
    for (int b : buckets) {
      if (!old.bucket(b).equals(neu.bucket(b))) {
        out.add(b);
      }
    }
    return out;
  }
}

package dev.rekey.jobs.repair;

import dev.rekey.common.JobPhase;
import dev.rekey.jobs.reconcile.RowClassifier;
import dev.rekey.jobs.reconcile.SideFold;
import dev.rekey.jobs.reconcile.SideTally;
import dev.rekey.jobs.reconcile.TimeBucketStats;
import dev.rekey.read.RegionRead;
import java.util.HashMap;
import java.util.Map;
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
 * the same cells under the same natural keys. The old side is a snapshot: where the run's find pass
 * tallied its buckets already, only the new side is read again.
 */
final class DigestRecheck {
  private DigestRecheck() {}

  /**
   * The buckets of {@code reads} whose tallies differ between the sides: the old side's read when
   * {@code reads} has one, else {@code knownOld}, its tallies of every bucket from the same
   * snapshot.
   */
  static TreeSet<Integer> differing(
      JavaSparkContext jsc,
      TimeBucketReads reads,
      int bucketCount,
      Map<Integer, TimeBucketStats> knownOld) {
    boolean readOld = reads.oldRead != null;
    try (JobPhase p =
        JobPhase.start(
            jsc.sc(),
            "repair: re-check %d bucket(s) by digest (%s)",
            reads.buckets.size(),
            readOld ? "both sides" : "the new side; the old side's from the find pass")) {
      JavaRDD<Tuple2<Boolean, SideTally>> tallies =
          tallies(reads.newRead, reads.newClassifier, bucketCount, false);
      if (readOld) {
        tallies = tallies.union(tallies(reads.oldRead, reads.oldClassifier, bucketCount, true));
      }
      // a tally per partition, merged per side in the driver
      SideTally oldSum = new SideTally(bucketCount);
      SideTally newSum = new SideTally(bucketCount);
      for (Tuple2<Boolean, SideTally> t : tallies.collect()) {
        (t._1() ? oldSum : newSum).merge(t._2());
      }
      Map<Integer, TimeBucketStats> old = new HashMap<>();
      Map<Integer, TimeBucketStats> neu = new HashMap<>();
      for (int b : reads.buckets) {
        old.put(b, readOld ? oldSum.bucket(b) : knownOld.get(b));
        neu.put(b, newSum.bucket(b));
      }
      return differing(old, neu, reads.buckets);
    }
  }

  private static JavaRDD<Tuple2<Boolean, SideTally>> tallies(
      RegionRead read, RowClassifier classifier, int bucketCount, boolean old) {
    return read.fold(new SideFold(classifier, bucketCount)).map(t -> new Tuple2<>(old, t));
  }

  /** Pure: the buckets of {@code buckets} whose rows, cells or digest differ. */
  static TreeSet<Integer> differing(
      Map<Integer, TimeBucketStats> old, Map<Integer, TimeBucketStats> neu, Set<Integer> buckets) {
    TreeSet<Integer> out = new TreeSet<>();
    for (int b : buckets) {
      if (!old.getOrDefault(b, TimeBucketStats.EMPTY)
          .equals(neu.getOrDefault(b, TimeBucketStats.EMPTY))) {
        out.add(b);
      }
    }
    return out;
  }
}

package dev.rekey.jobs.repair;

import dev.rekey.common.Clusters;
import dev.rekey.common.DecodedCell;
import dev.rekey.common.JobPhase;
import dev.rekey.jobs.backfill.RowsLoad;
import dev.rekey.jobs.backfill.write.Rekeyer;
import dev.rekey.jobs.compare.KeyDiff;
import dev.rekey.jobs.compare.NaturalKeyCompare;
import dev.rekey.jobs.compare.SideRow;
import dev.rekey.jobs.reconcile.NaturalKey;
import dev.rekey.jobs.reconcile.SideSpec;
import dev.rekey.read.TemporarySnapshot;
import dev.rekey.rowkey.KeyLayout;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * The cell-level comparison of some buckets (the Spark glue): both sides read ({@link
 * TimeBucketReads}), the keys that differ found by the natural-key compare ({@link
 * NaturalKeyCompare}) and each one's {@link RowRepair.Fix} decided. {@link #counts()} tallies them
 * per bucket; {@link #mutations()} collects the rows that need writing, to the driver: call it only
 * once the counts say they fit.
 */
final class ComparePass implements AutoCloseable {
  private final TimeBucketReads reads;
  private final JavaRDD<RowMutation> fixes;

  /**
   * Opens the reads of {@code buckets} (not empty) of the run ({@link TimeBucketReads}: {@code old}
   * is the old side's snapshot, the new table read through a snapshot taken now or {@code given})
   * and the comparison over them.
   */
  ComparePass(
      JavaSparkContext jsc,
      Clusters clusters,
      Admin newAdmin,
      RepairOptions options,
      SideSpec old,
      long snapshotTime,
      Set<Integer> buckets,
      TemporarySnapshot given) {
    reads = new TimeBucketReads(jsc, clusters, newAdmin, options, old, buckets, given, true);
    NaturalKey nk = options.naturalKey();
    KeyLayout oldLayout = old.layout();
    KeyLayout newLayout = options.neu().layout();
    Rekeyer rekeyer = new Rekeyer(oldLayout, newLayout);
    boolean deleteExtra = options.deleteExtra();
    fixes =
        NaturalKeyCompare.differences(
                reads.oldRead, reads.oldClassifier, reads.newRead, reads.newClassifier, buckets)
            .map(d -> mutation(d, snapshotTime, deleteExtra, nk, oldLayout, newLayout, rekeyer))
            .persist(StorageLevel.MEMORY_AND_DISK());
  }

  /** One natural key's fix, with the row key it has (or gets) in the new table. */
  static RowMutation mutation(
      KeyDiff d,
      long snapshotTime,
      boolean deleteExtra,
      NaturalKey nk,
      KeyLayout oldLayout,
      KeyLayout newLayout,
      Rekeyer rekeyer) {
    RowRepair.Fix fix =
        RowRepair.decide(KeyDiff.cells(d.old()), KeyDiff.cells(d.neu()), snapshotTime, deleteExtra);
    SideRow any = d.any();
    KeyLayout layout = d.old() != null ? oldLayout : newLayout;
    byte[] row = d.neu() != null ? d.neu().rowKey() : rekeyer.rekey(d.old().rowKey());
    return new RowMutation(
        any.bucket(), NaturalKey.display(nk, layout.decode(any.rowKey()).fields()), row, fix);
  }

  /** Per bucket, what the comparison found (buckets where every key matches are absent). */
  Map<Integer, TimeBucketCounts> counts() {
    try (JobPhase p = JobPhase.start(fixes.context(), "repair: compare the buckets cell by cell")) {
      return fixes
          .mapToPair(m -> new Tuple2<>(m.bucket(), TimeBucketCounts.of(m.fix())))
          .reduceByKey(TimeBucketCounts::plus, 1)
          .collectAsMap();
    }
  }

  /** The rows that need a write, by bucket and row key. */
  List<RowMutation> mutations() {
    List<RowMutation> out;
    try (JobPhase p = JobPhase.start(fixes.context(), "repair: collect the rows to write")) {
      out = new ArrayList<>(fixes.filter(m -> !m.fix().writesNothing()).collect());
    }
    out.sort(Comparator.comparingInt(RowMutation::bucket).thenComparing(RowMutation::rowHex));
    return out;
  }

  /** The rows that need a write, left on the executors (the HFile path's input). */
  JavaRDD<RowMutation> toWrite() {
    return fixes.filter(m -> !m.fix().writesNothing());
  }

  /**
   * The rows' cells to put under their new row keys, as the HFile path writes them, without the
   * cells {@code keptDeleted} names per row (hex): deleted after the snapshot, to stay deleted.
   */
  JavaRDD<RowsLoad.Row> putRows(Map<String, List<DecodedCell>> keptDeleted) {
    return fixes
        .filter(m -> !m.fix().puts().isEmpty())
        .map(
            m -> {
              List<DecodedCell> drop = keptDeleted.get(m.rowHex());
              List<DecodedCell> puts =
                  drop == null
                      ? m.fix().puts()
                      : m.fix().puts().stream().filter(c -> !drop.contains(c)).toList();
              return new RowsLoad.Row(m.row(), puts);
            })
        .filter(r -> !r.cells().isEmpty());
  }

  /** The rows with cells to delete (--delete-extra), without their Puts, to the driver. */
  List<RowMutation> deleteRows() {
    List<RowMutation> out;
    try (JobPhase p = JobPhase.start(fixes.context(), "repair: collect the cells to delete")) {
      out =
          new ArrayList<>(
              fixes
                  .filter(m -> !m.fix().deletes().isEmpty())
                  .map(
                      m ->
                          new RowMutation(
                              m.bucket(),
                              m.key(),
                              m.row(),
                              new RowRepair.Fix(
                                  m.fix().kind(),
                                  List.of(),
                                  m.fix().deletes(),
                                  List.of(),
                                  List.of())))
                  .collect());
    }
    out.sort(Comparator.comparingInt(RowMutation::bucket).thenComparing(RowMutation::rowHex));
    return out;
  }

  @Override
  public void close() {
    fixes.unpersist(false);
    reads.close();
  }
}

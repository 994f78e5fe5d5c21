package dev.rekey.jobs.repair;

import dev.rekey.common.Clusters;
import dev.rekey.common.TimeWindow;
import dev.rekey.common.Versions;
import dev.rekey.jobs.reconcile.NaturalKey;
import dev.rekey.jobs.reconcile.ReconcileOptions;
import dev.rekey.jobs.reconcile.RowClassifier;
import dev.rekey.jobs.reconcile.SideReads;
import dev.rekey.jobs.reconcile.SideSpec;
import dev.rekey.jobs.reconcile.TimeBuckets;
import dev.rekey.read.RegionRead;
import dev.rekey.read.TemporarySnapshot;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Both sides' reads of some buckets, opened with reconcile's readers over the buckets' own time
 * windows (buckets 5, 20 and 41: three windows, not the span 5..41), each with the classifier that
 * places a row in its bucket by natural key and time and digests it. The old side is its snapshot;
 * the new table is read through a snapshot taken now (deleted at {@link #close}), or one given.
 *
 * <p>Why a snapshot of the new side: its regions are read from their files in the tasks, as the old
 * side's are, instead of through its region servers' scanners (at 6M rows, 3 of 48 buckets: the 16
 * scan tasks spent 3.7 s of task time waiting on the servers for 385k rows, 0.05 s of CPU each). It
 * is one consistent view of the table as a live read is not; a cell written after it is newer than
 * the old side's snapshot too, which the repair never touches.
 */
final class TimeBucketReads implements AutoCloseable {
  final Set<Integer> buckets;
  final RowClassifier oldClassifier;
  final RowClassifier newClassifier;
  final RegionRead oldRead; // null when not asked for
  final RegionRead newRead;
  private final TemporarySnapshot newSnapshot; // the one this read took, or null

  /**
   * @param given a snapshot of the new table to read instead of taking one (the find pass's, when
   *     nothing was written to the table since), or null; the caller deletes it
   * @param withOld whether to open the old side's read too (a re-check that knows the old side's
   *     tallies reads the new side alone)
   */
  TimeBucketReads(
      JavaSparkContext jsc,
      Clusters clusters,
      Admin newAdmin,
      RepairOptions options,
      SideSpec old,
      Set<Integer> buckets,
      TemporarySnapshot given,
      boolean withOld) {
    this.buckets = Set.copyOf(buckets);
    TimeBuckets all = options.buckets();
    TreeSet<Integer> sorted = new TreeSet<>(buckets);
    TimeBuckets span =
        new TimeBuckets(
            new TimeWindow(all.start(sorted.first()), all.end(sorted.last())), all.size());
    NaturalKey nk = options.naturalKey();
    ReconcileOptions reading =
        new ReconcileOptions(
            old,
            options.neu(),
            span,
            all.size(),
            options.time(),
            nk,
            true,
            0,
            false,
            null,
            Versions.ALL);
    oldClassifier = new RowClassifier(old.layout(), nk, options.time(), all, true);
    newClassifier = new RowClassifier(options.neu().layout(), nk, options.time(), all, true);
    newSnapshot =
        given != null
            ? null
            : TemporarySnapshot.take(
                newAdmin,
                TableName.valueOf(options.neu().source().name()),
                RepairSnapshots.PURPOSE);
    String newName = given != null ? given.name() : newSnapshot.name();
    SideReads reads = new SideReads(reading, Map.of(options.neu(), newName));
    List<TimeWindow> windows = TimeBucketSpans.of(sorted, all);
    // each side from its own cluster (copies: a read sets its job's keys)
    RegionRead o = null;
    try {
      o = withOld ? reads.reader(old, windows).open(jsc, new Configuration(clusters.old())) : null;
      oldRead = o;
      newRead = reads.reader(options.neu(), windows).open(jsc, new Configuration(clusters.neu()));
    } catch (RuntimeException e) {
      try (TemporarySnapshot s = newSnapshot;
          RegionRead opened = o) {
        throw e;
      }
    }
  }

  @Override
  public void close() {
    try (TemporarySnapshot s = newSnapshot;
        RegionRead o = oldRead;
        RegionRead n = newRead) {
      // both reads closed and the snapshot deleted, also when one close fails
    }
  }
}

package dev.rekey.jobs.repair;

import dev.rekey.common.Clusters;
import dev.rekey.jobs.reconcile.Reconcile;
import dev.rekey.jobs.reconcile.ReconcileOptions;
import dev.rekey.jobs.reconcile.ReconcileResult;
import dev.rekey.jobs.reconcile.SideSpec;
import dev.rekey.jobs.reconcile.TimeBucketComparison;
import dev.rekey.jobs.reconcile.TimeBucketStats;
import dev.rekey.read.TemporarySnapshot;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.spark.sql.SparkSession;

/**
 * The buckets a repair without a reconcile report repairs: every bucket of [from, to) compared as
 * {@code reconcile --digest} does (counts and digests, one pass over both sides), the ones that
 * differ. Reconcile's drill-down is skipped: the repair compares those buckets cell by cell itself.
 * The new table is read through a snapshot the pass takes, its regions from their files in the
 * tasks, not through its region servers; the first compare reads the same snapshot ({@link
 * ComparePass}), one snapshot of the new table fewer.
 */
final class MismatchedBuckets {
  private MismatchedBuckets() {}

  /**
   * The buckets that differ, and the old side's rows, cells and digest in each of them: the
   * re-check after the repair reads the same snapshot, so it needs only the new side's.
   */
  record Found(
      TreeSet<Integer> buckets, Map<Integer, TimeBucketStats> old, TemporarySnapshot newSnapshot)
      implements AutoCloseable {
    /** Deletes the pass's snapshot of the new table. */
    @Override
    public void close() {
      newSnapshot.close();
    }
  }

  static Found find(
      SparkSession spark,
      Clusters clusters,
      Admin newAdmin,
      RepairOptions options,
      SideSpec old,
      Consumer<String> progress) {
    progress.accept(
        String.format(
            "  comparing %d buckets of %s and table %s (counts and digests) to find the ones to"
                + " repair",
            options.buckets().count(), old.describe(), options.table()));
    // the new table's snapshot is the pass's own, not reconcile's: the compare reads it too
    TemporarySnapshot snap =
        TemporarySnapshot.take(
            newAdmin, TableName.valueOf(options.neu().source().name()), RepairSnapshots.PURPOSE);
    ReconcileResult r;
    try {
      r =
          new Reconcile(
                  spark,
                  clusters,
                  ReconcileOptions.builder()
                      .old(old)
                      .neu(SideSpec.snapshot("new", snap.name(), options.neu().layout()))
                      .from(options.buckets().from())
                      .to(options.buckets().to())
                      .bucket(Duration.ofMillis(options.buckets().size()).toString())
                      .time(options.time().describe())
                      .digest(true)
                      .samples(0)
                      .drillDown(false)
                      .build())
              .execute(progress);
    } catch (RuntimeException e) {
      snap.close();
      throw e;
    }
    TreeSet<Integer> out = new TreeSet<>();
    Map<Integer, TimeBucketStats> oldStats = new HashMap<>();
    for (TimeBucketComparison c : r.buckets()) {
      if (!c.matches()) {
        out.add(c.index());
        oldStats.put(c.index(), c.old());
      }
    }
    progress.accept(String.format("  %d bucket(s) differ: %s", out.size(), out));
    return new Found(out, Map.copyOf(oldStats), snap);
  }
}

package dev.rekey.jobs.backfill;

import java.io.Serializable;
import java.util.Iterator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.spark.SparkContext;
import org.apache.spark.util.LongAccumulator;

/**
 * The read side's counters (rows read, quarantined, filtered; cell versions a target family cannot
 * keep; cells past a target family's TTL) and the rekeying that feeds them, shared by the dry run
 * and the write. Serializable: tasks add to the accumulators, the driver reads them.
 */
final class RowCounters implements Serializable {
  private static final long serialVersionUID = 1L;

  final LongAccumulator read;
  final LongAccumulator quarantined;
  final LongAccumulator filtered;
  final LongAccumulator olderVersions;
  final LongAccumulator expired;
  private final Rekeyer rekeyer;
  private final Retention retention;

  RowCounters(SparkContext sc, String prefix, Rekeyer rekeyer, Retention retention) {
    this.read = sc.longAccumulator(prefix + "read");
    this.quarantined = sc.longAccumulator(prefix + "quarantined");
    this.filtered = sc.longAccumulator(prefix + "filtered");
    this.olderVersions = sc.longAccumulator(prefix + "olderVersions");
    this.expired = sc.longAccumulator(prefix + "expired");
    this.rekeyer = rekeyer;
    this.retention = retention;
  }

  /**
   * The counters of a backfill's read (names prefixed with {@code prefix}), re-keying as planned.
   */
  static RowCounters of(
      SparkContext sc,
      String prefix,
      BackfillOptions o,
      BackfillPlan plan,
      org.apache.hadoop.conf.Configuration hbaseConf) {
    return new RowCounters(
        sc,
        prefix,
        Rekeyer.forCluster(o.sourceLayout(), o.targetLayout(), hbaseConf),
        plan.retention());
  }

  /** One task's source rows, re-keyed and trimmed, counted as they go (lazy). */
  RekeyedRows rekeyed(Iterator<Result> in, QuarantineWriter quarantine) {
    return new RekeyedRows(
        in, rekeyer, quarantine, read, quarantined, filtered, retention, olderVersions, expired);
  }
}

package dev.rekey.jobs.backfill;

import java.io.Serializable;
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
    this(rekeyer, retention);
    sc.register(read, prefix + "read");
    sc.register(quarantined, prefix + "quarantined");
    sc.register(filtered, prefix + "filtered");
    sc.register(olderVersions, prefix + "olderVersions");
    sc.register(expired, prefix + "expired");
  }

  /** Counters of a read outside any Spark job (registered with none): the rekeying's unit tests. */
  RowCounters(Rekeyer rekeyer, Retention retention) {
    this.read = new LongAccumulator();
    this.quarantined = new LongAccumulator();
    this.filtered = new LongAccumulator();
    this.olderVersions = new LongAccumulator();
    this.expired = new LongAccumulator();
    this.rekeyer = rekeyer;
    this.retention = retention;
  }

  /** The counters of a target's read (names prefixed with {@code prefix}), re-keying as planned. */
  static RowCounters of(
      SparkContext sc,
      String prefix,
      TargetRun run,
      org.apache.hadoop.conf.Configuration hbaseConf) {
    BackfillOptions o = run.options();
    return new RowCounters(
        sc,
        prefix,
        Rekeyer.forCluster(o.sourceLayout(), o.targetLayout(), hbaseConf),
        run.plan().retention());
  }

  Rekeyer rekeyer() {
    return rekeyer;
  }

  Retention retention() {
    return retention;
  }
}

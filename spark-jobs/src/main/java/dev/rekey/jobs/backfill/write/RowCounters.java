package dev.rekey.jobs.backfill.write;

import dev.rekey.jobs.backfill.BackfillOptions;
import dev.rekey.jobs.backfill.TargetRun;
import dev.rekey.jobs.backfill.plan.Retention;
import java.io.Serializable;
import java.util.function.Function;
import org.apache.spark.SparkContext;
import org.apache.spark.util.LongAccumulator;

/**
 * The read side's counters (rows read, quarantined, filtered; cell versions a target family cannot
 * keep; cells past a target family's TTL) and the rekeying that feeds them, shared by the dry run
 * and the write. Serializable: tasks add to the accumulators, the driver reads them.
 */
public final class RowCounters implements Serializable {
  private static final long serialVersionUID = 1L;

  public final LongAccumulator read;
  public final LongAccumulator quarantined;
  public final LongAccumulator filtered;
  public final LongAccumulator olderVersions;
  final LongAccumulator expired;
  private final Rekeyer rekeyer;
  private final Retention retention;

  /** Counters made by {@code counter}, one per name, for a read re-keying with {@code rekeyer}. */
  public RowCounters(
      Rekeyer rekeyer, Retention retention, Function<String, LongAccumulator> counter) {
    this.read = counter.apply("read");
    this.quarantined = counter.apply("quarantined");
    this.filtered = counter.apply("filtered");
    this.olderVersions = counter.apply("olderVersions");
    this.expired = counter.apply("expired");
    this.rekeyer = rekeyer;
    this.retention = retention;
  }

  /**
   * The counters of a target's read, registered with {@code sc} as {@code prefix + name} so that
   * the driver sees what the tasks add, re-keying as planned.
   */
  public static RowCounters of(
      SparkContext sc,
      String prefix,
      TargetRun run,
      org.apache.hadoop.conf.Configuration hbaseConf) {
    BackfillOptions o = run.options();
    // named, so Spark's UI and REST API show them per stage; published while the job runs
    // (JobMetrics: Spark's metrics sinks and the status file) as rows.<name>
    return new RowCounters(
        Rekeyer.forCluster(o.sourceLayout(), o.targetLayout(), hbaseConf),
        run.plan().retention(),
        name -> {
          LongAccumulator acc = sc.longAccumulator(prefix + name);
          dev.rekey.common.JobMetrics.of(sc)
              .ifPresent(m -> m.counter(metricPrefix(prefix) + "rows." + name, acc));
          return acc;
        });
  }

  /** "backfill." → "", "backfill.T." → "T.": the job's name is the metrics source's. */
  static String metricPrefix(String prefix) {
    int dot = prefix.indexOf('.');
    return dot < 0 ? prefix : prefix.substring(dot + 1);
  }

  Rekeyer rekeyer() {
    return rekeyer;
  }

  Retention retention() {
    return retention;
  }
}

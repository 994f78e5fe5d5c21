package dev.rekey.jobs.backfill;

import dev.rekey.common.Clusters;
import dev.rekey.common.JobPhase;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.plan.SourceRead;
import dev.rekey.jobs.guardrails.GuardrailFold;
import dev.rekey.jobs.guardrails.GuardrailLimits;
import dev.rekey.jobs.guardrails.GuardrailMode;
import dev.rekey.jobs.guardrails.GuardrailReport;
import dev.rekey.jobs.guardrails.GuardrailTally;
import dev.rekey.read.RegionRead;
import dev.rekey.rowkey.Hex;
import java.util.List;
import java.util.function.Consumer;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * {@code backfill --guardrails report|strict} (run layer): one read of the snapshot as the write
 * reads it, before anything is locked or written, every row checked against the target cluster's
 * limits ({@link GuardrailFold}); strict refuses to start when anything is found.
 */
final class GuardrailCheck {
  private GuardrailCheck() {}

  /** The limits of a run's first target: its cluster's conf, its layout for the key length. */
  static GuardrailLimits limits(Clusters clusters, BackfillOptions o) {
    return o.guardrailLimits().limits(clusters.neu(), o.sourceLayout(), o.targetLayout());
  }

  /** The source regions' start keys in hex, as the report names them. */
  static List<String> startsHex(RegionRead read) {
    return read.regionStarts().stream().map(Hex::of).toList();
  }

  /**
   * Checks {@code run}'s snapshot, prints the report, and refuses (exit 4) in strict mode when
   * anything is found: nothing has been written yet.
   */
  static GuardrailReport check(
      SparkSession spark, Clusters clusters, TargetRun run, Consumer<String> progress) {
    BackfillOptions o = run.options();
    GuardrailLimits limits = limits(clusters, o);
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    GuardrailReport report;
    try (RegionRead read = SourceRead.of(o, run.plan()).open(jsc, clusters.old())) {
      GuardrailTally tally;
      try (JobPhase phase =
          JobPhase.start(
              jsc.sc(),
              "backfill --guardrails %s: check snapshot %s",
              o.guardrails().name().toLowerCase(java.util.Locale.ROOT),
              o.sourceSnapshot())) {
        tally =
            read.fold(new GuardrailFold(limits, read.regionStarts())).reduce(GuardrailTally::merge);
      }
      report = GuardrailReport.of(limits, tally, startsHex(read));
    }
    report.lines().forEach(progress);
    if (o.guardrails() == GuardrailMode.STRICT && report.found()) {
      throw refusal(o, report);
    }
    return report;
  }

  /** The strict refusal: what was found, the worst key of the first kind, and the ways on. */
  static RekeyException refusal(BackfillOptions o, GuardrailReport report) {
    GuardrailReport.Kind first =
        report.kinds().stream().filter(k -> k.rows() > 0).findFirst().orElseThrow();
    return RekeyException.refused(
        "Cannot backfill %s: --guardrails strict found %s in snapshot %s (e.g. key %s: %s);"
            + " nothing was written. Fix or delete those rows, raise the limits (--max-cell-bytes,"
            + " --max-columns), or run with --guardrails report to go on (rows with an oversized"
            + " cell and undecodable keys are quarantined, counted against --max-quarantined)",
        o.targetTable(),
        report.summary(),
        o.sourceSnapshot(),
        first.worst().get(0).keyHex(),
        first.worst().get(0).detail());
  }
}

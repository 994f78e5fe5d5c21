package dev.rekey.jobs.backfill;

import dev.rekey.common.Clusters;
import dev.rekey.common.JobPhase;
import dev.rekey.jobs.backfill.plan.PlanReader;
import dev.rekey.jobs.backfill.plan.RegionBoundaries;
import dev.rekey.jobs.backfill.plan.SourceRead;
import dev.rekey.jobs.backfill.plan.WritePath;
import dev.rekey.jobs.backfill.staging.RegionEntry;
import dev.rekey.jobs.backfill.staging.RegionState;
import dev.rekey.jobs.backfill.write.QuarantineWriter;
import dev.rekey.jobs.backfill.write.RowCounters;
import dev.rekey.jobs.backfill.write.RowRekeyer;
import dev.rekey.jobs.backfill.write.StreamRekeyer;
import dev.rekey.jobs.guardrails.GuardrailFold;
import dev.rekey.jobs.guardrails.GuardrailLimits;
import dev.rekey.jobs.guardrails.GuardrailReport;
import dev.rekey.jobs.guardrails.GuardrailTally;
import dev.rekey.read.BothFolds;
import dev.rekey.read.PackedCells;
import dev.rekey.read.PartitionFold;
import dev.rekey.read.RegionRead;
import dev.rekey.rowkey.Hex;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * {@code --dry-run} (run layer): reads and rekeys the snapshot as the write would, writes nothing,
 * and estimates rows, cells, bytes and files per target region from the data.
 */
final class DryRun {
  private DryRun() {}

  /**
   * The dry run of {@code run}; {@code earlierLoad} is the note on an earlier load of the snapshot
   * (null if none).
   */
  static BackfillResult run(
      SparkSession spark, Clusters clusters, TargetRun run, String earlierLoad) throws IOException {
    Configuration hbaseConf = clusters.neu();
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    BackfillOptions o = run.options();
    RegionBoundaries live = run.live();
    RowCounters counters = RowCounters.of(jsc.sc(), "", run, hbaseConf);
    int n = live.count();
    WritePath path = run.plan().path();
    long[] totals;
    GuardrailLimits limits = GuardrailCheck.limits(clusters, o);
    GuardrailReport guardrails;
    try (RegionRead rows = SourceRead.of(o, run.plan()).open(jsc, clusters.old())) {
      Estimate estimate = new Estimate(counters, live, run.salted());
      // the guardrails in the same read: every row is read here anyway
      BothFolds<long[], GuardrailTally> both =
          new BothFolds<>(estimate, new GuardrailFold(limits, rows.regionStarts()));
      BothFolds.Both<long[], GuardrailTally> sum;
      // read as the write reads: on the in-order path in its tasks, so that the writers counted
      // per region are the (task, bucket) files the write opens
      try (JobPhase phase =
          JobPhase.start(
              jsc.sc(),
              "backfill --dry-run: read snapshot %s and size %s",
              o.sourceSnapshot(),
              JobPhase.count(n, "target region"))) {
        sum =
            (path.inSourceOrder() ? rows.foldInKeyOrder(path.writeTasks(), both) : rows.fold(both))
                .reduce(
                    (a, b) ->
                        new BothFolds.Both<>(
                            sum(a.first(), b.first()), a.second().merge(b.second())));
      }
      totals = sum.first();
      guardrails = GuardrailReport.of(limits, sum.second(), GuardrailCheck.startsHex(rows));
    }
    TableDescriptor target = run.target();
    int families = o.families().isEmpty() ? target.getColumnFamilyCount() : o.families().size();
    long maxFile = PlanReader.maxFileSize(target, hbaseConf);
    List<RegionEntry> regions = new ArrayList<>();
    long written = 0;
    for (int i = 0; i < n; i++) {
      long rowsIn = totals[i * 4];
      written += rowsIn;
      // per family: one file per (task, bucket) in order, or per sub-partition with data when
      // sorted; more if files roll at the max file size
      long writers =
          path.inSourceOrder() ? totals[i * 4 + 3] : Math.min(o.splitsPerRegion(), rowsIn);
      int files = rowsIn == 0 ? 0 : (int) (families * writers + totals[i * 4 + 2] / maxFile);
      regions.add(
          new RegionEntry(
              i,
              live.name(i),
              Hex.of(live.start(i)),
              Hex.of(live.end(i)),
              rowsIn,
              totals[i * 4 + 1],
              totals[i * 4 + 2],
              files,
              RegionState.PLANNED));
    }
    Accounting acc =
        new Accounting(
            counters.read.value(),
            written,
            counters.quarantined.value(),
            counters.filtered.value());
    return new BackfillResult(
        o.targetTable(),
        o.sourceSnapshot(),
        run.staging().dir,
        path.describe(),
        BackfillResult.Outcome.PLANNED,
        acc,
        o.versions().toString(),
        counters.olderVersions.value(),
        regions,
        BackfillResult.Timings.NONE,
        earlierLoad,
        guardrails);
  }

  /**
   * Per task, the rows re-keyed as the write re-keys them ({@link StreamRekeyer}), tallied per
   * target region: rows, cells, bytes, and the (task, bucket) writers the in-order path would open.
   */
  private record Estimate(RowCounters counters, RegionBoundaries live, boolean salted)
      implements PartitionFold<long[]> {
    @Override
    public Sink<long[]> open(int partition) {
      long[] acc = new long[live.count() * 4];
      Set<Integer> slots = new HashSet<>();
      return new StreamRekeyer<>(
          new RowRekeyer(counters, QuarantineWriter.none()),
          new StreamRekeyer.Rows<>() {
            @Override
            public void add(RowRekeyer.Rekeyed r) {
              int region = live.regionOf(r.targetKey());
              acc[region * 4]++;
              if (slots.add(region * 256 + (salted ? r.targetKey()[0] & 0xff : 0))) {
                acc[region * 4 + 3]++;
              }
              for (Cell c : r.cells()) {
                acc[region * 4 + 1]++;
                acc[region * 4 + 2] += PackedCells.keyValueLength(r.targetKey().length, c);
              }
            }

            @Override
            public boolean keepsCells() {
              return false; // sized during the call
            }

            @Override
            public long[] finish() {
              return acc;
            }
          });
    }
  }

  private static long[] sum(long[] a, long[] b) {
    long[] r = a.clone();
    for (int i = 0; i < r.length; i++) {
      r[i] += b[i];
    }
    return r;
  }
}

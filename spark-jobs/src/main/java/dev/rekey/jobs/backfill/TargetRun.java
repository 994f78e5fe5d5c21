package dev.rekey.jobs.backfill;

import dev.rekey.jobs.backfill.plan.BackfillPlan;
import dev.rekey.jobs.backfill.plan.RegionBoundaries;
import dev.rekey.jobs.backfill.staging.Staging;
import dev.rekey.jobs.backfill.write.WriteOutcome;
import dev.rekey.jobs.backfill.write.WriteStep;
import dev.rekey.rowkey.PrefixSpec;
import org.apache.hadoop.hbase.client.TableDescriptor;

/**
 * One target of a backfill run: the options, the plan decided for them, the staging dir, and the
 * target table as the write sees it — its live region boundaries (recorded in the manifest) and its
 * descriptor (the families' settings). The dry run, the write and the check of what the write
 * reported ({@link DryRun}, {@link WriteStep}, {@link KeyedRows}, {@link WriteOutcome}) take it
 * whole.
 *
 * <p>It is one target's share of a run: a backfill feeding several target layouts from one snapshot
 * read holds one per target, each with its own staging dir, ledger, lock and verification.
 */
public record TargetRun(
    BackfillOptions options,
    BackfillPlan plan,
    Staging staging,
    RegionBoundaries live,
    TableDescriptor target) {

  /** The target layout salts its keys: rows arrive in order within each salt bucket. */
  public boolean salted() {
    return options.targetLayout().prefix().kind() == PrefixSpec.Kind.SALT;
  }
}

package dev.rekey.jobs.backfill;

import dev.rekey.jobs.backfill.write.Written;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.client.Connection;

/**
 * What feeds the {@link BackfillPipeline} (run layer): a snapshot read ({@link SnapshotRows}) or
 * the rows a repair wants written ({@link KeyedRows}). The pipeline owns everything around the
 * write — locks, ledger and resume, manifest, load, verification — and asks the source only what
 * depends on where the rows come from.
 */
interface RowSource {
  /** True when {@code t} continues from its ledger instead of being written. */
  boolean resumes(PreparedTarget t) throws IOException;

  /**
   * Whether a retried attempt of this application (its lock taken over from an earlier attempt)
   * continues what that attempt left, as {@link #resumes} would: none by default.
   */
  default boolean retryResumes(PreparedTarget t) throws IOException {
    return false;
  }

  /** The target's run: its regions as they are now and the plan for them. */
  TargetRun plan(PreparedTarget t, Connection conn) throws IOException;

  /** Writes every run's HFiles: their reports, in the order of {@code runs}. */
  List<Written> write(List<TargetRun> runs) throws IOException;

  /**
   * After the write was checked, before its manifests are kept: refuses when the rows' origin did
   * not outlive the write (the pipeline then removes the staged files).
   */
  default void requireIntact() throws IOException {}
}

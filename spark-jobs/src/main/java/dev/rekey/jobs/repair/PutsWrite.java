package dev.rekey.jobs.repair;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;

/**
 * A repair's Puts path (driver side): the delete markers that would hide the Puts found by a raw
 * scan (compacted away with --compact-if-masked, else refused), then each bucket written and
 * checkpointed in turn, the phases timed.
 */
final class PutsWrite {
  private final Connection conn;
  private final RepairOptions options;
  private final PhaseTimes times;
  private final Consumer<String> progress;
  private final Set<String> writtenAfter;

  /**
   * @param writtenAfter the new table's NEW_VERSION_BEHAVIOR families ({@link RepairWriter})
   */
  PutsWrite(
      Connection conn,
      RepairOptions options,
      PhaseTimes times,
      Consumer<String> progress,
      Set<String> writtenAfter) {
    this.conn = conn;
    this.options = options;
    this.times = times;
    this.progress = progress;
    this.writtenAfter = writtenAfter;
  }

  /** Writes {@code rows} of the buckets {@code todo} into {@code written}; true if compacted. */
  boolean write(
      List<RowMutation> rows,
      TreeSet<Integer> todo,
      long snapshotTime,
      Checkpoint checkpoint,
      Map<Integer, WriteCounts> written,
      EarlyCompaction early)
      throws IOException {
    boolean compacted = false;
    RepairWriter writer =
        new RepairWriter(conn, TableName.valueOf(options.table()), snapshotTime, writtenAfter);
    times.start(PhaseTimes.MARKERS);
    Map<String, Masking> masks = writer.masking(rows);
    if (masks.values().stream().anyMatch(Masking::masked)) {
      times.start(PhaseTimes.COMPACT);
      writer.compactOrRefuse(rows, masks, options, early.requested(), progress);
      compacted = true;
      times.start(PhaseTimes.MARKERS);
      // the compaction took the markers of deletes made after the snapshot with it: keep them
      masks = Masking.keeping(writer.masking(rows), masks);
    }
    times.start(PhaseTimes.WRITE);
    for (int b : todo) {
      List<RowMutation> bucket = rows.stream().filter(m -> m.bucket() == b).toList();
      WriteCounts w = bucket.isEmpty() ? WriteCounts.NONE : writer.write(bucket, masks);
      written.put(b, w);
      checkpoint.done(b, w);
      progress.accept(
          String.format(
              Locale.ROOT,
              "  bucket %s written: %,d cells put, %,d deleted",
              RepairReport.iso(options.buckets().start(b)),
              w.cellsPut(),
              w.cellsDeleted()));
    }
    times.stop();
    return compacted;
  }
}

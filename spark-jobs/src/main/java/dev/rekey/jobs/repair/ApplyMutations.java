package dev.rekey.jobs.repair;

import dev.rekey.jobs.common.Job;
import dev.rekey.jobs.common.JobResult;
import dev.rekey.jobs.common.Json;
import dev.rekey.jobs.common.RekeyException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * {@code rekey repair --apply FILE}: replays a dry run's mutation file on the table it names, with
 * the same delete-marker check as a repair (a plain HBase client: no Spark). Re-check with {@code
 * rekey reconcile} afterwards.
 */
public final class ApplyMutations implements Job<ApplyMutations.Applied> {
  private final Configuration hbaseConf;
  private final Path file;
  private final boolean compactIfMasked;
  private final Duration compactWait;

  public ApplyMutations(
      Configuration hbaseConf, Path file, boolean compactIfMasked, Duration compactWait) {
    this.hbaseConf = hbaseConf;
    this.file = file;
    this.compactIfMasked = compactIfMasked;
    this.compactWait = compactWait;
  }

  /** What the replay wrote. */
  public record Applied(Path file, String table, int rows, WriteCounts written, boolean compacted)
      implements JobResult {
    @Override
    public String console() {
      return String.format(
          Locale.ROOT,
          "applied %s to %s: %,d rows, %,d cells put, %,d deleted%s%s%n"
              + "check it with rekey reconcile (the same --old/--new options, --digest)%n",
          file,
          table,
          rows,
          written.cellsPut(),
          written.cellsDeleted(),
          compacted ? " (delete markers compacted away first)" : "",
          written.putsKeptDeleted() > 0
              ? String.format(
                  Locale.ROOT,
                  "; %,d cells not put: deleted after the snapshot",
                  written.putsKeptDeleted())
              : "");
    }

    @Override
    public String toJson() {
      return Json.pretty(this);
    }
  }

  @Override
  public Applied execute(Consumer<String> progress) {
    MutationFile m = MutationFile.read(file);
    List<RowMutation> rows = m.rows();
    progress.accept(
        String.format(
            Locale.ROOT,
            "  %s: %,d rows for %s, %,d cells to put, %,d to delete",
            file,
            rows.size(),
            m.table(),
            m.cellsToPut(),
            m.cellsToDelete()));
    try (Connection conn = ConnectionFactory.createConnection(hbaseConf)) {
      RepairWriter w = new RepairWriter(conn, TableName.valueOf(m.table()), m.snapshotTime());
      Map<String, Masking> masks = w.masking(rows);
      boolean compacted = false;
      if (masks.values().stream().anyMatch(Masking::masked)) {
        if (!compactIfMasked) {
          throw w.refusal(rows, masks);
        }
        w.compact(rows, masks, compactWait, progress);
        compacted = true;
        masks = w.masking(rows);
      }
      return new Applied(file, m.table(), rows.size(), w.write(rows, masks), compacted);
    } catch (IOException e) {
      throw new RekeyException(
          "Cannot apply " + file + " to " + m.table() + ": " + e.getMessage(), e);
    }
  }
}

package dev.rekey.jobs.backfill.write;

import dev.rekey.common.HBaseConfigs;
import dev.rekey.jobs.backfill.TargetRun;
import dev.rekey.jobs.backfill.plan.PlanReader;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.TaskContext;
import scala.Tuple2;

/**
 * One target's share of a write's tasks (run layer): whether its rows are written in source order,
 * its HFile writer, counters, quarantine dir and tally. Serializable: shipped to every task, where
 * it opens the target's re-keyer and HFile writer.
 */
public record TargetWriter(
    boolean inOrder,
    InOrderHFiles writer,
    Map<String, String> conf,
    RowCounters counters,
    String quarantineDir,
    WriteTally tally)
    implements Serializable {

  /** The writer of {@code run}'s HFiles for the target cluster {@code hbaseConf}. */
  public static TargetWriter of(
      TargetRun run, Configuration hbaseConf, RowCounters counters, WriteTally t) {
    Map<String, String> conf = HBaseConfigs.toMap(hbaseConf);
    long maxFile = PlanReader.maxFileSize(run.target(), hbaseConf);
    return new TargetWriter(
        run.plan().path().inSourceOrder(),
        new InOrderHFiles(
            new HFileSlots(run.live(), run.salted(), maxFile, run.plan().tiers()),
            run.target(),
            conf,
            run.staging().attempts()),
        conf,
        counters,
        run.staging().quarantine().toString(),
        t);
  }

  /** In a task: the target's row re-keyer, quarantining into this attempt's file. */
  RowRekeyer rowRekeyer() {
    TaskContext tc = TaskContext.get();
    return new RowRekeyer(
        counters,
        new QuarantineWriter(
            quarantineDir, tc.partitionId(), tc.taskAttemptId(), HBaseConfigs.fromMap(conf)));
  }

  /** In a task: the target's HFiles for rows streamed in target order. */
  InOrderHFiles.Task open() {
    try {
      return writer.open(tally);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * In a task: a sorted partition's (shuffle key, packed row) records written; the shuffle key's
   * first {@code skip} bytes are not the target key's ({@link ShuffledRow#ofTarget}).
   */
  List<InOrderHFiles.WrittenFile> writeSorted(Iterator<Tuple2<byte[], byte[]>> in, int skip)
      throws IOException {
    return writer.write(new SortedRows(in, skip), tally);
  }
}

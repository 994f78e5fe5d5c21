package dev.rekey.jobs.backfill.write;

import java.util.List;

/**
 * What one target's write reported (run layer): its tasks' counters and tally, and the HFiles of
 * the attempts Spark kept. {@link WriteOutcome} turns it into the ledger, whatever fed the write.
 */
public record Written(
    RowCounters counters, WriteTally tally, List<InOrderHFiles.WrittenFile> files) {}

package dev.rekey.jobs.backfill;

import dev.rekey.jobs.backfill.staging.Staging;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.TableDescriptor;

/**
 * One target of a pipeline run before it is locked and planned (run layer): its share of the
 * options, its table and staging dir, and what its pre-flight found — the target's descriptor and
 * the source snapshot's creation time (null and 0 for a repair's rows, which have no pre-flight:
 * their source reads the descriptor when it plans).
 */
record PreparedTarget(
    BackfillOptions options,
    TableName table,
    Staging staging,
    TableDescriptor target,
    long snapshotCreated) {}

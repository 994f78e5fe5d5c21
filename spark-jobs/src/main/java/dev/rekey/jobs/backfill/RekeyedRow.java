package dev.rekey.jobs.backfill;

import org.apache.hadoop.hbase.Cell;

/**
 * One source row re-keyed ({@link RowRekeying}): its source key, its target key and that key's time
 * field ({@link Rekeyer#NO_TIME} if none), and the cells the target keeps, already under the target
 * key (copied there as they streamed past, or unpacked after the sort shuffle).
 */
record RekeyedRow(byte[] sourceKey, byte[] targetKey, long time, Cell[] cells) {}

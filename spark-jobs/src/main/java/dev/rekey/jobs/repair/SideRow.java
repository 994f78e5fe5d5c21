package dev.rekey.jobs.repair;

import dev.rekey.jobs.common.DecodedCell;
import java.io.Serializable;
import java.util.List;

/**
 * One row of one side in a repaired bucket: its row key, canonical natural key, bucket and every
 * cell version.
 */
record SideRow(byte[] rowKey, byte[] naturalKey, int bucket, List<DecodedCell> cells)
    implements Serializable {}

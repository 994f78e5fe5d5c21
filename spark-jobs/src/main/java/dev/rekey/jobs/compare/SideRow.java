package dev.rekey.jobs.compare;

import dev.rekey.common.DecodedCell;
import java.io.Serializable;
import java.util.List;

/**
 * One row of one side in a compared bucket: its row key, canonical natural key, bucket and every
 * cell version.
 */
public record SideRow(byte[] rowKey, byte[] naturalKey, int bucket, List<DecodedCell> cells)
    implements Serializable {}

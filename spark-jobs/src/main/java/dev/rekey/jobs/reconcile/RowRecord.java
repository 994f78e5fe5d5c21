package dev.rekey.jobs.reconcile;

import dev.rekey.jobs.compare.RowPlacer;
import java.io.Serializable;

/**
 * One row of one side, reduced to what reconciliation compares: its natural key, time bucket, cell
 * count and content digest, plus the row key to show in samples.
 *
 * @param bucket bucket index, or {@link #OUTSIDE} (time outside [from, to)) or {@link #UNDECODABLE}
 * @param naturalKey canonical natural key ({@link NaturalKey}); null if undecodable
 * @param digest the row's digest; null when not computed (counts-only pass) or undecodable
 * @param reason why the key did not decode; else null
 */
public record RowRecord(
    byte[] rowKey,
    byte[] naturalKey,
    int bucket,
    long time,
    long cells,
    Digest128 digest,
    String reason)
    implements Serializable, RowPlacer.Placed {
  public static final int OUTSIDE = -1;
  public static final int UNDECODABLE = -2;

  public boolean undecodable() {
    return bucket == UNDECODABLE;
  }

  public boolean inRange() {
    return bucket >= 0;
  }
}

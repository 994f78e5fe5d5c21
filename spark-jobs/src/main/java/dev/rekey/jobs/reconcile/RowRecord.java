package dev.rekey.jobs.reconcile;

import dev.rekey.jobs.compare.RowPlacer;
import java.io.Serializable;
import java.util.List;

/**
 * One row of one side, reduced to what reconciliation compares: its natural key, time bucket, cell
 * count and content digest, plus the row key to show in samples.
 *
 * @param bucket bucket index, or {@link #OUTSIDE} (time outside [from, to)) or {@link #UNDECODABLE}
 * @param naturalKey canonical natural key ({@link NaturalKey}); null if undecodable
 * @param digest the row's digest; null when not computed (counts-only pass) or undecodable
 * @param reason why the key did not decode; else null
 * @param cellText null: no pass fills it any more (the drill-down compares the cells themselves,
 *     {@code dev.rekey.jobs.compare}); to be dropped with the tests that still build it
 */
public record RowRecord(
    byte[] rowKey,
    byte[] naturalKey,
    int bucket,
    long time,
    long cells,
    Digest128 digest,
    String reason,
    List<String> cellText)
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

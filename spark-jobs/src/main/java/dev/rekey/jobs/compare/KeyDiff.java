package dev.rekey.jobs.compare;

import dev.rekey.common.DecodedCell;
import java.io.Serializable;
import java.util.List;

/**
 * One natural key's rows of both sides and how they differ (pure).
 *
 * @param old the old side's row, or null when it has none
 * @param neu the new side's row, or null
 */
public record KeyDiff(Difference kind, SideRow old, SideRow neu) implements Serializable {

  /** The pair's difference by {@link Difference#of}. */
  public static KeyDiff of(SideRow old, SideRow neu) {
    return new KeyDiff(Difference.of(cells(old), cells(neu)), old, neu);
  }

  /** A side's cells, empty when the side has no row. */
  public static List<DecodedCell> cells(SideRow r) {
    return r == null ? List.of() : r.cells();
  }

  /** The row of either side, the old one first. */
  public SideRow any() {
    return old != null ? old : neu;
  }

  public byte[] naturalKey() {
    return any().naturalKey();
  }
}

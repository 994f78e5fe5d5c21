package dev.rekey.jobs.compare;

import dev.rekey.common.DecodedCell;
import java.util.HashSet;
import java.util.List;

/**
 * How one natural key differs between the old and the new side (pure): the one meaning of missing,
 * extra and different that reconcile reports and repair fixes. Every cell counts, every version,
 * with its timestamp: two rows match only when they hold the same cells (family, qualifier,
 * timestamp, value), whatever their row keys.
 */
public enum Difference {
  /** The same cells on both sides. */
  MATCH("matches"),
  /** On the old side only: the new table lost it. */
  MISSING_IN_NEW("missing in new"),
  /** On the new side only: an extra (or re-keyed twice) row. */
  EXTRA_IN_NEW("extra in new"),
  /** On both sides, with different cells, values, versions or timestamps. */
  CONTENT_DIFFERS("content differs");

  private final String label;

  Difference(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  /**
   * The difference of one natural key's cells (every version of each side; empty when the side has
   * no such row).
   */
  public static Difference of(List<DecodedCell> old, List<DecodedCell> neu) {
    if (old.isEmpty() && neu.isEmpty()) {
      return MATCH;
    }
    if (neu.isEmpty()) {
      return MISSING_IN_NEW;
    }
    if (old.isEmpty()) {
      return EXTRA_IN_NEW;
    }
    // a row holds each coordinate (family, qualifier, timestamp) once: equal sets, equal rows
    return new HashSet<>(old).equals(new HashSet<>(neu)) ? MATCH : CONTENT_DIFFERS;
  }
}

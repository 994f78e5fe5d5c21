package dev.rekey.jobs.backfill;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Unsigned lexicographic row-key order (HBase's row order); cells within a row travel pre-sorted.
 */
public final class RowOrder implements Comparator<byte[]>, Serializable {
  private static final long serialVersionUID = 1L;

  @Override
  public int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }
}

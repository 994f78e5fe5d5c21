package dev.rekey.client;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Row keys compared by their natural key: the bytes after the salt or hash prefix, unsigned. The
 * layouts' codecs make that byte order the order of the field values (rowkey's property tests check
 * it), so merging bucket scans by it yields the order an unsalted table would have had.
 */
public final class NaturalOrder implements Comparator<byte[]> {
  private final int prefixLength;

  public NaturalOrder(int prefixLength) {
    this.prefixLength = prefixLength;
  }

  @Override
  public int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(
        a,
        Math.min(prefixLength, a.length),
        a.length,
        b,
        Math.min(prefixLength, b.length),
        b.length);
  }
}

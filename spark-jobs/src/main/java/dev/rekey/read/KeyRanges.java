package dev.rekey.read;

import java.util.Arrays;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Pure key-range arithmetic for splitting a region's reads (unsigned byte order; an empty stop key
 * = no end).
 */
public final class KeyRanges {
  private KeyRanges() {}

  /**
   * k+1 increasing boundaries from {@code lo} to {@code hi} cutting [lo, hi) into k parts of equal
   * width (keys as big-endian numbers, HBase's {@link Bytes#split}); null if the range is too
   * narrow for k distinct parts.
   */
  public static byte[][] cut(byte[] lo, byte[] hi, int k) {
    if (k < 2 || Bytes.compareTo(lo, hi) >= 0) {
      return null;
    }
    byte[][] b = Bytes.split(lo, hi, k - 1);
    if (b == null || b.length != k + 1) {
      return null;
    }
    for (int i = 1; i < b.length; i++) {
      if (Bytes.compareTo(b[i - 1], b[i]) >= 0) {
        return null;
      }
    }
    return b;
  }

  /** The larger of two start keys. */
  public static byte[] max(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b) >= 0 ? a : b;
  }

  /** The smaller of two stop keys, where an empty stop key means no end. */
  public static byte[] minStop(byte[] stop, byte[] b) {
    return stop.length == 0 || Arrays.compareUnsigned(b, stop) < 0 ? b : stop;
  }
}

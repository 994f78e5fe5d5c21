package dev.rekey.rowkey;

import java.io.Serializable;
import java.util.Arrays;

/** A scan range [start, stop): stop exclusive; an empty array is an open end (as in HBase Scan). */
public final class KeyRange implements Serializable {
  private static final long serialVersionUID = 1L;
  private final byte[] start;
  private final byte[] stop;

  public KeyRange(byte[] start, byte[] stop) {
    this.start = start.clone();
    this.stop = stop.clone();
  }

  public byte[] start() {
    return start.clone();
  }

  public byte[] stop() {
    return stop.clone();
  }

  /** True if the key falls in [start, stop) under unsigned byte order. */
  public boolean contains(byte[] key) {
    return Arrays.compareUnsigned(key, start) >= 0
        && (stop.length == 0 || Arrays.compareUnsigned(key, stop) < 0);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyRange
        && Arrays.equals(start, ((KeyRange) o).start)
        && Arrays.equals(stop, ((KeyRange) o).stop);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(start) + Arrays.hashCode(stop);
  }

  @Override
  public String toString() {
    return "[" + Hex.of(start) + ", " + Hex.of(stop) + ")";
  }
}

package dev.rekey.jobs.backfill.plan;

import dev.rekey.rowkey.Hex;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A table's regions as sorted start keys (the first is empty) with their encoded names: which
 * region a row key falls in, by binary search. Read from the live table at write time and recorded
 * in the manifest.
 */
public final class RegionBoundaries implements Serializable {
  private static final long serialVersionUID = 1L;

  private final byte[][] startKeys;
  private final String[] names;

  public RegionBoundaries(List<byte[]> startKeys, List<String> names) {
    if (startKeys.isEmpty() || startKeys.get(0).length != 0) {
      throw new IllegalArgumentException(
          String.format(
              "region start keys must begin with the empty key, got %s",
              startKeys.isEmpty() ? "none" : Hex.of(startKeys.get(0))));
    }
    for (int i = 1; i < startKeys.size(); i++) {
      if (Arrays.compareUnsigned(startKeys.get(i - 1), startKeys.get(i)) >= 0) {
        throw new IllegalArgumentException(
            String.format(
                "region start keys must increase: %s then %s",
                Hex.of(startKeys.get(i - 1)), Hex.of(startKeys.get(i))));
      }
    }
    this.startKeys = startKeys.toArray(new byte[0][]);
    this.names = names.toArray(new String[0]);
  }

  /** Start keys in hex, as recorded in the manifest. */
  public static RegionBoundaries fromHex(List<String> startKeysHex, List<String> names) {
    List<byte[]> keys = new ArrayList<>();
    for (String h : startKeysHex) {
      keys.add(Hex.parse(h));
    }
    return new RegionBoundaries(keys, names);
  }

  public int count() {
    return startKeys.length;
  }

  /** The index of the region holding the row: the last region whose start key is ≤ row. */
  public int regionOf(byte[] row) {
    return regionOf(row, 0, row.length);
  }

  public int regionOf(byte[] buf, int off, int len) {
    int lo = 0;
    int hi = startKeys.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (Arrays.compareUnsigned(startKeys[mid], 0, startKeys[mid].length, buf, off, off + len)
          <= 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  public byte[] start(int region) {
    return startKeys[region].clone();
  }

  /** The exclusive end key; empty for the last region. */
  public byte[] end(int region) {
    return region + 1 < startKeys.length ? startKeys[region + 1].clone() : new byte[0];
  }

  public String name(int region) {
    return names[region];
  }

  public List<String> startKeysHex() {
    List<String> out = new ArrayList<>();
    for (byte[] k : startKeys) {
      out.add(Hex.of(k));
    }
    return out;
  }

  public List<String> names() {
    return List.of(names);
  }
}

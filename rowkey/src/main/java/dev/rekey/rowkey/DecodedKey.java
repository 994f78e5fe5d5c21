package dev.rekey.rowkey;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The result of decoding a row key: the fields in key order and the (verified) prefix bytes. */
public final class DecodedKey {
  private final List<String> names;
  private final Map<String, Integer> indexOf;
  private final Object[] values;
  private final byte[] prefixBytes;

  /**
   * The layout's names and name index are shared by every key it decodes: a key holds only its
   * values.
   */
  DecodedKey(
      List<String> names, Map<String, Integer> indexOf, Object[] values, byte[] prefixBytes) {
    this.names = names;
    this.indexOf = indexOf;
    this.values = values;
    this.prefixBytes = prefixBytes;
  }

  /** A copy of the decoded fields in key order (derived sub-buckets included). */
  public LinkedHashMap<String, Object> fields() {
    LinkedHashMap<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i++) {
      m.put(names.get(i), values[i]);
    }
    return m;
  }

  /** The prefix bytes (salt byte or hash prefix; empty for NONE). */
  public byte[] prefixBytes() {
    return prefixBytes.clone();
  }

  public Object get(String name) {
    Integer i = indexOf.get(name);
    return i == null ? null : values[i];
  }

  /** Field i in key order ({@link KeyLayout#fieldIndex}); byte[] values are shared, not copied. */
  public Object get(int i) {
    return values[i];
  }

  /** The values in key order, shared (not copied): for the layouts of this package. */
  Object[] values() {
    return values;
  }

  /** The salt bucket (0..N-1) for a SALT layout, else -1. */
  public int salt() {
    return prefixBytes.length == 1 ? prefixBytes[0] & 0xff : -1;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("DecodedKey{prefix=").append(Hex.of(prefixBytes));
    for (int i = 0; i < values.length; i++) {
      Object v = values[i];
      sb.append(", ")
          .append(names.get(i))
          .append('=')
          .append(v instanceof byte[] ? Hex.of((byte[]) v) : v);
    }
    return sb.append('}').toString();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof DecodedKey)) {
      return false;
    }
    DecodedKey d = (DecodedKey) o;
    return Arrays.equals(prefixBytes, d.prefixBytes)
        && names.equals(d.names)
        && Arrays.deepEquals(values, d.values);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(prefixBytes);
  }
}

package dev.rekey.rowkey;

import java.util.Arrays;
import java.util.LinkedHashMap;

/** The result of decoding a row key: the fields in key order and the (verified) prefix bytes. */
public final class DecodedKey {
  private final LinkedHashMap<String, Object> fields;
  private final byte[] prefixBytes;

  DecodedKey(LinkedHashMap<String, Object> fields, byte[] prefixBytes) {
    this.fields = fields;
    this.prefixBytes = prefixBytes;
  }

  /** A copy of the decoded fields in key order (derived sub-buckets included). */
  public LinkedHashMap<String, Object> fields() {
    return new LinkedHashMap<>(fields);
  }

  /** The prefix bytes (salt byte or hash prefix; empty for NONE). */
  public byte[] prefixBytes() {
    return prefixBytes.clone();
  }

  public Object get(String name) {
    return fields.get(name);
  }

  /** The salt bucket (0..N-1) for a SALT layout, else -1. */
  public int salt() {
    return prefixBytes.length == 1 ? prefixBytes[0] & 0xff : -1;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("DecodedKey{prefix=").append(Hex.of(prefixBytes));
    fields.forEach(
        (k, v) ->
            sb.append(", ").append(k).append('=').append(v instanceof byte[] ? Hex.of((byte[]) v) : v));
    return sb.append('}').toString();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof DecodedKey)) {
      return false;
    }
    DecodedKey d = (DecodedKey) o;
    if (!Arrays.equals(prefixBytes, d.prefixBytes) || !fields.keySet().equals(d.fields.keySet())) {
      return false;
    }
    for (String k : fields.keySet()) {
      if (!Arrays.deepEquals(new Object[] {fields.get(k)}, new Object[] {d.fields.get(k)})) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(prefixBytes);
  }
}

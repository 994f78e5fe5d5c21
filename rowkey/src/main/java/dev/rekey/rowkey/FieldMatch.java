package dev.rekey.rowkey;

/**
 * A key field a read fixes but its key ranges cannot (it is not among the key's first fields): the
 * bytes every row of the read has at a fixed offset of its key, checked on each row of the ranges
 * (a server-side row filter in the client). Planned by {@link KeyRangePlanner} only inside a time
 * window, so the rows it checks are bounded.
 *
 * @param field the field's name
 * @param offset where the field's bytes start in every key of the layout
 * @param value the field's encoded bytes
 */
public record FieldMatch(String field, int offset, byte[] value) {
  public FieldMatch {
    value = value.clone();
  }

  @Override
  public byte[] value() {
    return value.clone();
  }

  /** True when {@code key} holds the value at the offset. */
  public boolean matches(byte[] key) {
    return key.length >= offset + value.length
        && java.util.Arrays.equals(key, offset, offset + value.length, value, 0, value.length);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldMatch f
        && f.field.equals(field)
        && f.offset == offset
        && java.util.Arrays.equals(f.value, value);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * field.hashCode() + offset) + java.util.Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return field + "@" + offset + "=" + Hex.of(value);
  }
}

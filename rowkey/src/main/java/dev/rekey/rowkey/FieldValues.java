package dev.rekey.rowkey;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Text ↔ typed field values, for the CLI and vector files: bytes as hex, int/long/reversed_long and
 * sub_bucket as decimal, strings as-is.
 */
public final class FieldValues {
  private FieldValues() {}

  /**
   * Parses text values into the Java types {@link KeyLayout#encode} takes, in key order. Throws
   * KeyEncodeException naming the field and the problem (unknown field, bad hex, not a number,
   * ...). Missing fields are not an error here ({@code encode} reports them).
   */
  public static LinkedHashMap<String, Object> parse(KeyLayout layout, Map<String, String> text) {
    for (String k : text.keySet()) {
      if (layout.field(k) == null) {
        throw new KeyEncodeException(
            k,
            String.format(
                "unknown field '%s' for layout %s (fields: %s)",
                k, layout.name(), layout.fields().stream().map(FieldSpec::name).toList()));
      }
    }
    return inKeyOrder(layout, text, FieldValues::parseValue);
  }

  /** Parses one field's text value. */
  public static Object parseValue(FieldSpec f, String s) {
    if (s == null) {
      throw new KeyEncodeException(f.name(), String.format("field '%s': no value given", f.name()));
    }
    switch (f.type()) {
      case STRING:
        return s;
      case BYTES:
        try {
          return Hex.parse(s);
        } catch (IllegalArgumentException e) {
          throw new KeyEncodeException(
              f.name(),
              String.format("field '%s' (bytes, give hex): %s", f.name(), e.getMessage()));
        }
      case INT:
      case SUB_BUCKET:
        try {
          return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
          throw notDecimal(f, s, "int", Integer.MIN_VALUE, Integer.MAX_VALUE);
        }
      case LONG:
      case REVERSED_LONG:
        try {
          return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
          throw notDecimal(f, s, "long", Long.MIN_VALUE, Long.MAX_VALUE);
        }
      default:
        throw new AssertionError(f.type());
    }
  }

  private static KeyEncodeException notDecimal(
      FieldSpec f, String s, String kind, long min, long max) {
    return new KeyEncodeException(
        f.name(),
        String.format(
            "field '%s' (%s): not a decimal %s in [%d, %d]: '%s'",
            f.name(), f.type().fileName(), kind, min, max, s));
  }

  /** Formats typed values (e.g. {@link DecodedKey#fields()}) as text, in the layout's key order. */
  public static LinkedHashMap<String, String> format(KeyLayout layout, Map<String, Object> values) {
    return inKeyOrder(layout, values, FieldValues::formatValue);
  }

  /** Formats one value: bytes as lower-case hex, numbers as decimal, strings as-is. */
  public static String formatValue(FieldSpec f, Object v) {
    if (v instanceof byte[]) {
      return Hex.of((byte[]) v);
    }
    return String.valueOf(v);
  }

  /** The values the map has for the layout's fields, converted, in key order. */
  private static <V, R> LinkedHashMap<String, R> inKeyOrder(
      KeyLayout layout, Map<String, V> values, BiFunction<FieldSpec, V, R> convert) {
    LinkedHashMap<String, R> out = new LinkedHashMap<>();
    for (FieldSpec f : layout.fields()) {
      if (values.containsKey(f.name())) {
        out.put(f.name(), convert.apply(f, values.get(f.name())));
      }
    }
    return out;
  }
}

package dev.rekey.rowkey;

import java.util.LinkedHashMap;
import java.util.Map;

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
            "unknown field '"
                + k
                + "' for layout "
                + layout.name()
                + " (fields: "
                + layout.fields().stream().map(FieldSpec::name).toList()
                + ")");
      }
    }
    LinkedHashMap<String, Object> out = new LinkedHashMap<>();
    for (FieldSpec f : layout.fields()) {
      if (text.containsKey(f.name())) {
        out.put(f.name(), parseValue(f, text.get(f.name())));
      }
    }
    return out;
  }

  /** Parses one field's text value. */
  public static Object parseValue(FieldSpec f, String s) {
    if (s == null) {
      throw new KeyEncodeException(f.name(), "field '" + f.name() + "': no value given");
    }
    switch (f.type()) {
      case STRING:
        return s;
      case BYTES:
        try {
          return Hex.parse(s);
        } catch (IllegalArgumentException e) {
          throw new KeyEncodeException(
              f.name(), "field '" + f.name() + "' (bytes, give hex): " + e.getMessage());
        }
      case INT:
      case SUB_BUCKET:
        try {
          return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
          throw new KeyEncodeException(
              f.name(),
              "field '"
                  + f.name()
                  + "' ("
                  + f.type().fileName()
                  + "): not a decimal int in ["
                  + Integer.MIN_VALUE
                  + ", "
                  + Integer.MAX_VALUE
                  + "]: '"
                  + s
                  + "'");
        }
      case LONG:
      case REVERSED_LONG:
        try {
          return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
          throw new KeyEncodeException(
              f.name(),
              "field '"
                  + f.name()
                  + "' ("
                  + f.type().fileName()
                  + "): not a decimal long in ["
                  + Long.MIN_VALUE
                  + ", "
                  + Long.MAX_VALUE
                  + "]: '"
                  + s
                  + "'");
        }
      default:
        throw new AssertionError(f.type());
    }
  }

  /** Formats typed values (e.g. {@link DecodedKey#fields()}) as text, in the layout's key order. */
  public static LinkedHashMap<String, String> format(KeyLayout layout, Map<String, Object> values) {
    LinkedHashMap<String, String> out = new LinkedHashMap<>();
    for (FieldSpec f : layout.fields()) {
      if (values.containsKey(f.name())) {
        out.put(f.name(), formatValue(f, values.get(f.name())));
      }
    }
    return out;
  }

  /** Formats one value: bytes as lower-case hex, numbers as decimal, strings as-is. */
  public static String formatValue(FieldSpec f, Object v) {
    if (v instanceof byte[]) {
      return Hex.of((byte[]) v);
    }
    return String.valueOf(v);
  }
}

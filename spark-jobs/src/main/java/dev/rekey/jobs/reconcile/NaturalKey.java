package dev.rekey.jobs.reconcile;

import dev.rekey.common.DecodedRow;
import dev.rekey.rowkey.FieldSpec;
import dev.rekey.rowkey.FieldType;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The natural key of a row, independent of any key layout: the layout's fields (salt, hash prefix
 * and derived sub-buckets left out) in <b>field-name order</b>, so two layouts that order the same
 * fields differently still give the same bytes. Canonical encoding, per field:
 *
 * <pre>
 *   u16 nameLength | name (UTF-8) | tag (1 byte: 'S' string, 'B' bytes, 'I' integer) | u32 valueLength | value
 * </pre>
 *
 * where a string value is its UTF-8 bytes, bytes are themselves, and every integer (INT, LONG,
 * REVERSED_LONG — the natural value, not the reversed bytes) is 8 bytes big-endian two's
 * complement, so an int field in one layout and a long in the other compare equal. Length prefixes
 * make the encoding injective (no two keys share bytes).
 */
public final class NaturalKey implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The fields that make up the natural key, sorted by name, with their type class. */
  private final TreeMap<String, Character> fields;

  private NaturalKey(TreeMap<String, Character> fields) {
    this.fields = fields;
  }

  /** The natural key of a layout (decodable layouts only). */
  public static NaturalKey of(KeyLayout layout) {
    if (!layout.decodable()) {
      throw new IllegalArgumentException(
          "Cannot reconcile with layout "
              + layout.name()
              + ": its keys are full hashes,"
              + " which cannot be decoded back into their fields (reconcile needs each row's natural key)");
    }
    TreeMap<String, Character> m = new TreeMap<>();
    for (FieldSpec f : layout.fields()) {
      if (f.type() != FieldType.SUB_BUCKET) {
        m.put(f.name(), tag(f.type()));
      }
    }
    return new NaturalKey(m);
  }

  /**
   * The natural key both layouts share; fails naming the difference when they do not describe the
   * same fields (then rows cannot be matched across the tables).
   */
  public static NaturalKey common(KeyLayout oldLayout, KeyLayout newLayout) {
    NaturalKey a = of(oldLayout);
    NaturalKey b = of(newLayout);
    if (!a.fields.equals(b.fields)) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot reconcile: layouts %s and %s do not have the same natural key"
                  + " (old fields %s, new fields %s); reconcile matches rows by the fields"
                  + " both keys encode, so both layouts need the same field names and kinds"
                  + " (string, bytes, integer)",
              oldLayout.name(), newLayout.name(), describe(a.fields), describe(b.fields)));
    }
    return a;
  }

  public List<String> fieldNames() {
    return new ArrayList<>(fields.keySet());
  }

  /**
   * The canonical encoding (above) of the rows one layout decodes, their field values by position
   * ({@code layoutFields}: the layout's field names in key order): each field's name and tag
   * prepared once, no map built per row; extra fields such as sub-buckets are left out. A reconcile
   * encodes every row of both sides.
   */
  public Encoder encoder(List<String> layoutFields) {
    List<Map.Entry<String, Character>> named = new ArrayList<>(fields.entrySet());
    int[] positions = new int[named.size()];
    byte[][] headers = new byte[named.size()][];
    char[] tags = new char[named.size()];
    for (int i = 0; i < named.size(); i++) {
      String name = named.get(i).getKey();
      positions[i] = layoutFields.indexOf(name);
      if (positions[i] < 0) {
        throw new IllegalArgumentException(
            "field '" + name + "' is missing from the layout's fields " + layoutFields);
      }
      tags[i] = named.get(i).getValue();
      byte[] n = name.getBytes(StandardCharsets.UTF_8);
      headers[i] =
          ByteBuffer.allocate(2 + n.length + 1)
              .putShort((short) n.length)
              .put(n)
              .put((byte) tags[i])
              .array();
    }
    return new Encoder(named.stream().map(Map.Entry::getKey).toList(), positions, headers, tags);
  }

  /** The natural key of one layout's decoded rows. */
  public static final class Encoder {
    private final List<String> names;
    private final int[] positions;
    private final byte[][] headers;
    private final char[] tags;

    private Encoder(List<String> names, int[] positions, byte[][] headers, char[] tags) {
      this.names = names;
      this.positions = positions;
      this.headers = headers;
      this.tags = tags;
    }

    /** The canonical bytes of a row's key fields. */
    public byte[] encode(DecodedRow row) {
      byte[][] values = new byte[positions.length][];
      int size = 0;
      for (int i = 0; i < positions.length; i++) {
        values[i] = valueBytes(names.get(i), tags[i], row.field(positions[i]));
        size += headers[i].length + 4 + values[i].length;
      }
      ByteBuffer out = ByteBuffer.allocate(size);
      for (int i = 0; i < positions.length; i++) {
        out.put(headers[i]).putInt(values[i].length).put(values[i]);
      }
      return out.array();
    }
  }

  /**
   * Decoded values as display text, in name order: bytes as hex, integers and strings as
   * themselves.
   */
  public static Map<String, String> display(NaturalKey key, Map<String, Object> values) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String name : key.fields.keySet()) {
      Object v = values.get(name);
      out.put(name, v instanceof byte[] b ? Hex.of(b) : String.valueOf(v));
    }
    return out;
  }

  private static byte[] valueBytes(String name, char tag, Object v) {
    switch (tag) {
      case 'S':
        if (v instanceof String s) {
          return s.getBytes(StandardCharsets.UTF_8);
        }
        break;
      case 'B':
        if (v instanceof byte[] b) {
          return b;
        }
        break;
      default:
        if (v instanceof Long || v instanceof Integer) {
          return ByteBuffer.allocate(8).putLong(((Number) v).longValue()).array();
        }
    }
    throw new IllegalArgumentException(
        String.format(
            "field '%s' has a %s value, expected %s",
            name, v.getClass().getSimpleName(), kind(tag)));
  }

  private static char tag(FieldType t) {
    return switch (t) {
      case STRING -> 'S';
      case BYTES -> 'B';
      default -> 'I';
    };
  }

  private static String kind(char tag) {
    return tag == 'S' ? "string" : tag == 'B' ? "bytes" : "integer";
  }

  private static String describe(TreeMap<String, Character> m) {
    StringBuilder sb = new StringBuilder("[");
    m.forEach(
        (k, v) -> sb.append(sb.length() > 1 ? ", " : "").append(k).append(':').append(kind(v)));
    return sb.append(']').toString();
  }
}

package dev.rekey.jobs.scan;

import dev.rekey.common.RekeyException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One qualifier turned into a typed column of the wide view: {@code family:qualifier=type[:name]},
 * e.g. {@code d:v=long} (column {@code v}) or {@code d:v=long:reading}. The value is the newest
 * cell of that column in the scanned window; a value whose length does not fit the type (e.g. 3
 * bytes for a long) is null and counted.
 */
public record WideColumn(String family, String qualifier, Type type, String name)
    implements Serializable {
  /** Value types; numbers are big-endian as {@code Bytes.toBytes(long|int|double)} writes them. */
  public enum Type {
    STRING,
    LONG,
    INT,
    DOUBLE,
    BINARY;

    static Type parse(String s, String spec) {
      for (Type t : values()) {
        if (t.name().equalsIgnoreCase(s)) {
          return t;
        }
      }
      throw RekeyException.usage(
          "Invalid column '%s': unknown type '%s' (expected string, long, int,"
              + " double or binary)",
          spec, s);
    }
  }

  public WideColumn {
    if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw RekeyException.usage(
          "Invalid column name '%s' for %s:%s: use letters, digits and _ (give a"
              + " name: %s:%s=%s:my_name)",
          name, family, qualifier, family, qualifier, type.name().toLowerCase(Locale.ROOT));
    }
  }

  /** Parses {@code family:qualifier=type[:name]}. */
  public static WideColumn parse(String spec) {
    String s = spec.trim();
    int eq = s.indexOf('=');
    int colon = s.indexOf(':');
    if (eq < 0
        || colon < 0
        || colon > eq
        || colon == 0
        || eq == colon + 1
        || eq == s.length() - 1) {
      throw RekeyException.usage(
          "Invalid column '" + spec + "': expected family:qualifier=type[:name], e.g. d:v=long");
    }
    String family = s.substring(0, colon);
    String qualifier = s.substring(colon + 1, eq);
    String rest = s.substring(eq + 1);
    int c2 = rest.indexOf(':');
    Type type = Type.parse(c2 < 0 ? rest : rest.substring(0, c2), spec);
    String name = c2 < 0 ? qualifier : rest.substring(c2 + 1);
    return new WideColumn(family, qualifier, type, name);
  }

  /** The column's value from cell bytes, or null if they do not fit the type. */
  public Object convert(byte[] value) {
    switch (type) {
      case STRING:
        return new String(value, StandardCharsets.UTF_8);
      case LONG:
        return value.length == 8 ? ByteBuffer.wrap(value).getLong() : null;
      case INT:
        return value.length == 4 ? ByteBuffer.wrap(value).getInt() : null;
      case DOUBLE:
        return value.length == 8 ? ByteBuffer.wrap(value).getDouble() : null;
      default:
        return value;
    }
  }

  public boolean matches(byte[] fam, byte[] qual) {
    return family.equals(new String(fam, StandardCharsets.UTF_8))
        && qualifier.equals(new String(qual, StandardCharsets.UTF_8));
  }

  public String spec() {
    return family
        + ":"
        + qualifier
        + "="
        + type.name().toLowerCase(Locale.ROOT)
        + (name.equals(qualifier) ? "" : ":" + name);
  }
}

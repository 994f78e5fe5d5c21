package dev.rekey.rowkey;

import java.util.Locale;

/**
 * Field types and their Java value types: STRING→String, BYTES→byte[], INT→Integer, LONG→Long,
 * REVERSED_LONG→Long (the natural value, not the reversed bytes), SUB_BUCKET→Integer (derived).
 */
public enum FieldType {
  STRING,
  BYTES,
  INT,
  LONG,
  REVERSED_LONG,
  SUB_BUCKET;

  /** The name used in layout files: string, bytes, int, long, reversed_long, sub_bucket. */
  public String fileName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static FieldType fromFileName(String s) {
    for (FieldType t : values()) {
      if (t.fileName().equals(s)) {
        return t;
      }
    }
    throw new IllegalArgumentException(
        "unknown field type '"
            + s
            + "' (known: string, bytes, int, long, reversed_long, sub_bucket)");
  }
}

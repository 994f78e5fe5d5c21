package dev.rekey.jobs.reconcile;

import dev.rekey.common.DecodedCell;
import dev.rekey.rowkey.FieldSpec;
import dev.rekey.rowkey.FieldType;
import dev.rekey.rowkey.KeyLayout;
import java.io.Serializable;
import java.util.List;

/**
 * Where a row's time comes from: a key field holding epoch millis ({@code key:FIELD}, default the
 * layouts' time field), or the cells ({@code cell}: the row's newest cell timestamp, with only
 * cells in [from, to) read).
 *
 * @param field the key field, or null for cell time
 */
public record TimeSource(String field) implements Serializable {
  public static final TimeSource CELL = new TimeSource(null);

  public boolean cell() {
    return field == null;
  }

  /**
   * The time of a whole row (key field or newest cell), as {@link RowClassifier} takes it while the
   * row streams past; for the few rows a report shows.
   */
  public long of(KeyLayout layout, byte[] rowKey, List<DecodedCell> cells) {
    if (cell()) {
      return cells.stream().mapToLong(DecodedCell::timestamp).max().orElse(Long.MIN_VALUE);
    }
    return ((Number) layout.checkedField(rowKey, layout.fieldIndex(field))).longValue();
  }

  /** "key:ts" or "cell". */
  public String describe() {
    return cell() ? "cell" : "key:" + field;
  }

  /**
   * Parses {@code --time} (null = default) against both layouts: the field must exist in both as an
   * integer (millis); the default is the layouts' declared time field, which must agree.
   */
  public static TimeSource resolve(String option, KeyLayout oldLayout, KeyLayout newLayout) {
    if (option != null && option.trim().equals("cell")) {
      return CELL;
    }
    String field;
    if (option == null) {
      String a = oldLayout.timeField().orElse(null);
      String b = newLayout.timeField().orElse(null);
      if (a == null || b == null || !a.equals(b)) {
        throw new IllegalArgumentException(
            String.format(
                "Cannot tell the time of a row: layouts %s (time: %s) and %s (time: %s)"
                    + " do not declare the same time field; pass --time key:FIELD (a key field"
                    + " holding epoch millis) or --time cell (cell timestamps)",
                oldLayout.name(), a, newLayout.name(), b));
      }
      field = a;
    } else if (option.startsWith("key:") && option.length() > 4) {
      field = option.substring(4).trim();
    } else {
      throw new IllegalArgumentException(
          "Invalid --time '" + option + "': expected key:FIELD or cell");
    }
    check(field, oldLayout);
    check(field, newLayout);
    return new TimeSource(field);
  }

  private static void check(String field, KeyLayout layout) {
    FieldSpec f = layout.field(field);
    if (f == null) {
      throw new IllegalArgumentException(
          String.format(
              "Invalid --time key:%s: layout %s has no field '%s' (fields: %s)",
              field, layout.name(), field, layout.fields()));
    }
    if (f.type() != FieldType.LONG
        && f.type() != FieldType.REVERSED_LONG
        && f.type() != FieldType.INT) {
      throw new IllegalArgumentException(
          String.format(
              "Invalid --time key:%s: field '%s' of layout %s is %s, not an integer of"
                  + " epoch millis",
              field, field, layout.name(), f.type().fileName()));
    }
  }
}

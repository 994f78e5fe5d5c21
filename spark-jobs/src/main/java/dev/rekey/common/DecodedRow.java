package dev.rekey.common;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A row key decoded with a layout plus the row's cells: what jobs keep of an HBase {@code Result}
 * once they have read it (Results are not serializable; this is). Field values are in the layout's
 * key order with the Java types of {@link dev.rekey.rowkey.FieldType} (STRING→String, BYTES→byte[],
 * INT→Integer, LONG/REVERSED_LONG→Long, SUB_BUCKET→Integer). Immutable by convention: the arrays
 * are not copied, callers must not modify them.
 */
public final class DecodedRow implements Serializable {
  private static final long serialVersionUID = 1L;

  private final byte[] rowKey;
  private final Object[] fields;
  private final List<DecodedCell> cells;

  public DecodedRow(byte[] rowKey, Object[] fields, List<DecodedCell> cells) {
    this.rowKey = rowKey;
    this.fields = fields;
    this.cells = Collections.unmodifiableList(cells);
  }

  public byte[] rowKey() {
    return rowKey;
  }

  /** Field i in key order (see {@link RowDecoder#fieldNames()}). */
  public Object field(int i) {
    return fields[i];
  }

  public int fieldCount() {
    return fields.length;
  }

  public List<DecodedCell> cells() {
    return cells;
  }

  /** Sum of {@link DecodedCell#byteSize()} plus the row key length. */
  public long byteSize() {
    long b = rowKey.length;
    for (DecodedCell c : cells) {
      b += c.byteSize();
    }
    return b;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DecodedRow r
        && Arrays.equals(rowKey, r.rowKey)
        && Arrays.deepEquals(fields, r.fields)
        && cells.equals(r.cells);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(rowKey);
  }

  @Override
  public String toString() {
    return "DecodedRow{" + dev.rekey.rowkey.Hex.of(rowKey) + ", " + cells.size() + " cells}";
  }
}

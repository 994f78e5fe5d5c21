package dev.rekey.common;

import dev.rekey.rowkey.DecodedKey;
import dev.rekey.rowkey.KeyDecodeException;
import dev.rekey.rowkey.KeyLayout;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Result;

/**
 * Decodes an HBase row (a {@code Result}, or a key and its cells) with a {@link KeyLayout} into a
 * serializable {@link DecodedRow}. Stateless apart from the layout; Serializable so a Spark closure
 * can carry it to executors. Shared by the jobs that read tables (scan, reconcile).
 */
public final class RowDecoder implements Serializable {
  private static final long serialVersionUID = 1L;

  private final KeyLayout layout;

  public RowDecoder(KeyLayout layout) {
    if (!layout.decodable()) {
      throw RekeyException.usage(
          "Cannot decode rows with layout %s (%s): its keys are full hashes and"
              + " cannot be turned back into fields; use a layout with the natural key",
          layout.name(), layout.source());
    }
    this.layout = layout;
  }

  public KeyLayout layout() {
    return layout;
  }

  /** The layout's field names in key order: the order of {@link DecodedRow#field(int)}. */
  public List<String> fieldNames() {
    return layout.fieldNames();
  }

  /**
   * Decodes one whole row.
   *
   * @throws KeyDecodeException (an IllegalArgumentException) with the key in hex and the reason, if
   *     the layout does not decode the key
   */
  public DecodedRow decode(Result result) {
    return decode(result.getRow(), result.rawCells());
  }

  /**
   * Checks that the layout decodes a row key ({@link KeyLayout#check}): decode's checks and
   * exception, without building the row.
   */
  public void check(byte[] rowKey) {
    layout.check(rowKey);
  }

  /** As {@link #decode(Result)}, for a key and its cells (null cells = none). */
  public DecodedRow decode(byte[] rowKey, Cell[] cells) {
    List<DecodedCell> out = new ArrayList<>(cells == null ? 0 : cells.length);
    if (cells != null) {
      for (Cell c : cells) {
        out.add(DecodedCell.of(c));
      }
    }
    return decode(rowKey, out);
  }

  /** As {@link #decode(Result)}, for a key and its cells already copied out (kept as given). */
  public DecodedRow decode(byte[] rowKey, List<DecodedCell> cells) {
    DecodedKey key = layout.decode(rowKey);
    Object[] fields = new Object[layout.fields().size()];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = key.get(i);
    }
    return new DecodedRow(rowKey, fields, cells);
  }
}

package dev.rekey.client;

import dev.rekey.rowkey.FieldSpec;
import dev.rekey.rowkey.FieldType;
import dev.rekey.rowkey.FieldValues;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;

/**
 * What must agree between the old and the new table for one row, across the key change: the natural
 * key (decoded with each side's layout) and every cell's family, qualifier, timestamp and value —
 * not the row key bytes.
 */
final class RowContent {
  private RowContent() {}

  /**
   * The natural key of a row as text ({@code deviceId=..., ts=...}): its fields by name, derived
   * sub-buckets left out, so two layouts ordering the same fields differently give the same text.
   */
  static String naturalKey(KeyLayout layout, byte[] row) {
    Map<String, String> byName =
        new TreeMap<>(FieldValues.format(layout, layout.decode(row).fields()));
    for (FieldSpec f : layout.fields()) {
      if (f.type() == FieldType.SUB_BUCKET) {
        byName.remove(f.name());
      }
    }
    return byName.toString();
  }

  /**
   * The row's cells, in HBase's cell order (family, qualifier, newest first), as comparable text.
   */
  static String cells(Result r) {
    StringBuilder sb = new StringBuilder();
    for (Cell c : r.rawCells()) {
      sb.append(Hex.of(CellUtil.cloneFamily(c)))
          .append(':')
          .append(Hex.of(CellUtil.cloneQualifier(c)))
          .append('@')
          .append(c.getTimestamp())
          .append('=')
          .append(Hex.of(CellUtil.cloneValue(c)))
          .append(';');
    }
    return sb.toString();
  }

  /** Natural key → cells, for the rows of one side of a scan. */
  static Map<String, String> byNaturalKey(KeyLayout layout, List<Result> rows) {
    Map<String, String> m = new LinkedHashMap<>();
    for (Result r : rows) {
      m.put(naturalKey(layout, r.getRow()), cells(r));
    }
    return m;
  }
}

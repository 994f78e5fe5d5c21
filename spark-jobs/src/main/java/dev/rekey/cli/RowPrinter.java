package dev.rekey.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.rekey.common.Json;
import dev.rekey.rowkey.FieldSpec;
import dev.rekey.rowkey.FieldValues;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Prints rows for `get` and `read`: {@code text} (one line per row: key, fields, cells) or {@code
 * jsonl} (one JSON object per row: the decoded fields — numbers as numbers, bytes as hex — then
 * {@code key} in hex and {@code cells} with family, qualifier, timestamp and value in hex).
 */
record RowPrinter(KeyLayout layout, Format format, PrintWriter out) {
  enum Format {
    text,
    jsonl
  }

  /** Prints a row whose natural key is decoded from its row key. */
  void print(Result r) {
    print(r, layout.decode(r.getRow()).fields());
  }

  /**
   * Prints a row with the given natural key (a full_hash key cannot be decoded: the caller's fields
   * stand in).
   */
  void print(Result r, Map<String, Object> fields) {
    if (format == Format.text) {
      StringBuilder sb = new StringBuilder(Hex.of(r.getRow()));
      FieldValues.format(layout, fields)
          .forEach((k, v) -> sb.append("  ").append(k).append('=').append(v));
      for (Cell c : r.rawCells()) {
        sb.append("  ")
            .append(Bytes.toStringBinary(CellUtil.cloneFamily(c)))
            .append(':')
            .append(Bytes.toStringBinary(CellUtil.cloneQualifier(c)))
            .append('@')
            .append(c.getTimestamp())
            .append("=0x")
            .append(Hex.of(CellUtil.cloneValue(c)));
      }
      out.println(sb);
      return;
    }
    Map<String, Object> row = new LinkedHashMap<>();
    for (FieldSpec f : layout.fields()) {
      Object v = fields.get(f.name());
      if (v != null) {
        row.put(f.name(), v instanceof Number ? v : FieldValues.formatValue(f, v));
      }
    }
    row.put("key", Hex.of(r.getRow()));
    List<Map<String, Object>> cells = new ArrayList<>();
    for (Cell c : r.rawCells()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("family", Bytes.toStringBinary(CellUtil.cloneFamily(c)));
      m.put("qualifier", Bytes.toStringBinary(CellUtil.cloneQualifier(c)));
      m.put("timestamp", c.getTimestamp());
      m.put("value", Hex.of(CellUtil.cloneValue(c)));
      cells.add(m);
    }
    row.put("cells", cells);
    try {
      out.println(Json.MAPPER.writeValueAsString(row));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(
          String.format("Cannot print row %s as JSON: %s", Hex.of(r.getRow()), e.getMessage()), e);
    }
  }
}

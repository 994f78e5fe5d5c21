package dev.rekey.jobs.scan;

import dev.rekey.common.DecodedCell;
import dev.rekey.common.DecodedRow;
import dev.rekey.rowkey.FieldSpec;
import dev.rekey.rowkey.FieldType;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The two temporary views reports query (documented in sql/README.md), as Spark schemas and rows.
 * Pure: no session needed, so the shapes are unit-tested.
 *
 * <ul>
 *   <li>{@value #ROWS}: one row per HBase row — the layout's fields typed (string, binary, int,
 *       long; a BYTES field also as {@code <field>_hex}), {@code row_key}, {@code row_key_hex},
 *       {@code cell_count}, {@code row_bytes}, {@code partition} (the Spark partition: a region, or
 *       one of its k splits), then the wide columns ({@code --column}/{@code @column}).
 *   <li>{@value #CELLS}: one row per cell (long form) — the layout's fields (and {@code _hex}),
 *       {@code row_key_hex}, {@code family}, {@code qualifier}, {@code cell_ts}, {@code value}
 *       (binary), {@code partition}.
 * </ul>
 */
public final class ScanViews implements Serializable {
  private static final long serialVersionUID = 1L;
  public static final String ROWS = "scan_rows";
  public static final String CELLS = "scan_cells";

  private final List<FieldSpec> fields;
  private final List<WideColumn> columns;

  public ScanViews(KeyLayout layout, List<WideColumn> columns) {
    this.fields = List.copyOf(layout.fields());
    this.columns = List.copyOf(columns);
  }

  static DataType sqlType(FieldType t) {
    switch (t) {
      case STRING:
        return DataTypes.StringType;
      case BYTES:
        return DataTypes.BinaryType;
      case INT:
      case SUB_BUCKET:
        return DataTypes.IntegerType;
      default:
        return DataTypes.LongType;
    }
  }

  static DataType sqlType(WideColumn.Type t) {
    switch (t) {
      case STRING:
        return DataTypes.StringType;
      case LONG:
        return DataTypes.LongType;
      case INT:
        return DataTypes.IntegerType;
      case DOUBLE:
        return DataTypes.DoubleType;
      default:
        return DataTypes.BinaryType;
    }
  }

  private List<StructField> keyFields() {
    List<StructField> out = new ArrayList<>();
    for (FieldSpec f : fields) {
      out.add(DataTypes.createStructField(f.name(), sqlType(f.type()), false));
      if (f.type() == FieldType.BYTES) {
        out.add(DataTypes.createStructField(f.name() + "_hex", DataTypes.StringType, false));
      }
    }
    return out;
  }

  public StructType rowSchema() {
    List<StructField> s = keyFields();
    s.add(DataTypes.createStructField("row_key", DataTypes.BinaryType, false));
    s.add(DataTypes.createStructField("row_key_hex", DataTypes.StringType, false));
    s.add(DataTypes.createStructField("cell_count", DataTypes.IntegerType, false));
    s.add(DataTypes.createStructField("row_bytes", DataTypes.LongType, false));
    s.add(DataTypes.createStructField("partition", DataTypes.IntegerType, false));
    for (WideColumn c : columns) {
      s.add(DataTypes.createStructField(c.name(), sqlType(c.type()), true));
    }
    return DataTypes.createStructType(s);
  }

  public StructType cellSchema() {
    List<StructField> s = keyFields();
    s.add(DataTypes.createStructField("row_key_hex", DataTypes.StringType, false));
    s.add(DataTypes.createStructField("family", DataTypes.StringType, false));
    s.add(DataTypes.createStructField("qualifier", DataTypes.StringType, false));
    s.add(DataTypes.createStructField("cell_ts", DataTypes.LongType, false));
    s.add(DataTypes.createStructField("value", DataTypes.BinaryType, false));
    s.add(DataTypes.createStructField("partition", DataTypes.IntegerType, false));
    return DataTypes.createStructType(s);
  }

  private void addKey(List<Object> v, DecodedRow r) {
    for (int i = 0; i < fields.size(); i++) {
      Object x = r.field(i);
      v.add(x);
      if (fields.get(i).type() == FieldType.BYTES) {
        v.add(Hex.of((byte[]) x));
      }
    }
  }

  public Row row(DecodedRow r, int partition) {
    List<Object> v = new ArrayList<>(fields.size() * 2 + 6 + columns.size());
    addKey(v, r);
    v.add(r.rowKey());
    v.add(Hex.of(r.rowKey()));
    v.add(r.cells().size());
    v.add(r.byteSize());
    v.add(partition);
    for (WideColumn c : columns) {
      v.add(wideValue(r, c));
    }
    return RowFactory.create(v.toArray());
  }

  /**
   * The newest cell of the column in the row (null if none, or if its bytes do not fit the type).
   */
  static Object wideValue(DecodedRow r, WideColumn c) {
    DecodedCell newest = null;
    for (DecodedCell cell : r.cells()) {
      if (c.matches(cell.family(), cell.qualifier())
          && (newest == null || cell.timestamp() > newest.timestamp())) {
        newest = cell;
      }
    }
    return newest == null ? null : c.convert(newest.value());
  }

  public List<Row> cells(DecodedRow r, int partition) {
    List<Object> key = new ArrayList<>();
    addKey(key, r);
    key.add(Hex.of(r.rowKey()));
    List<Row> out = new ArrayList<>(r.cells().size());
    for (DecodedCell c : r.cells()) {
      List<Object> v = new ArrayList<>(key);
      v.add(c.familyString());
      v.add(c.qualifierString());
      v.add(c.timestamp());
      v.add(c.value());
      v.add(partition);
      out.add(RowFactory.create(v.toArray()));
    }
    return out;
  }
}

package dev.rekey.bench;

import dev.rekey.jobs.backfill.write.Rekeyer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.ExtendedCellBuilderFactory;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Result;

/** One source row's cells under its new key, timestamps kept: what every baseline writes. */
final class RekeyedCells {
  private RekeyedCells() {}

  static List<KeyValue> of(Rekeyer rekeyer, Result row) {
    byte[] key = rekeyer.rekey(row.getRow());
    List<KeyValue> out = new ArrayList<>(row.size());
    for (Cell c : row.rawCells()) {
      out.add(rebuild(key, c));
    }
    return out;
  }

  /** A deep copy of {@code c} under {@code row}, as HBase's own cell builder makes one. */
  static KeyValue rebuild(byte[] row, Cell c) {
    return (KeyValue)
        ExtendedCellBuilderFactory.create(CellBuilderType.DEEP_COPY)
            .setRow(row)
            .setFamily(c.getFamilyArray(), c.getFamilyOffset(), c.getFamilyLength())
            .setQualifier(c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength())
            .setTimestamp(c.getTimestamp())
            .setType(c.getTypeByte())
            .setValue(c.getValueArray(), c.getValueOffset(), c.getValueLength())
            .build();
  }
}

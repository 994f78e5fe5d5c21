package dev.rekey.jobs.repair;

import dev.rekey.rowkey.Hex;
import java.io.Serializable;
import java.util.Arrays;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One cell version of a row, without its row key (the two sides' row keys differ across a key
 * change): family, qualifier, timestamp, value. Its coordinate is (family, qualifier, timestamp): a
 * Put at the same coordinate replaces the value, a Delete at it removes exactly this version.
 */
public record RepairCell(byte[] family, byte[] qualifier, long timestamp, byte[] value)
    implements Serializable {

  /** A copy of a streamed cell (the reader reuses its buffers). */
  public static RepairCell of(Cell c) {
    return new RepairCell(
        CellUtil.cloneFamily(c),
        CellUtil.cloneQualifier(c),
        c.getTimestamp(),
        CellUtil.cloneValue(c));
  }

  /** The coordinate as a map key: {@code familyHex:qualifierHex@timestamp}. */
  String coordinate() {
    return Hex.of(family) + ":" + Hex.of(qualifier) + "@" + timestamp;
  }

  boolean sameValue(RepairCell o) {
    return Arrays.equals(value, o.value);
  }

  /** {@code d:v@1764374400000} (printable family and qualifier). */
  public String describe() {
    return Bytes.toStringBinary(family) + ":" + Bytes.toStringBinary(qualifier) + "@" + timestamp;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RepairCell c
        && timestamp == c.timestamp
        && Arrays.equals(family, c.family)
        && Arrays.equals(qualifier, c.qualifier)
        && Arrays.equals(value, c.value);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Arrays.hashCode(family) + Arrays.hashCode(qualifier))
        + Long.hashCode(timestamp);
  }

  @Override
  public String toString() {
    return describe() + "=" + Hex.of(value);
  }
}

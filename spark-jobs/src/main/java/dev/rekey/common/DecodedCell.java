package dev.rekey.common;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;

/**
 * One cell of a decoded row, copied out of HBase's buffers so it is Java-serializable and safe to
 * keep after the scanner moved on (Results are neither). Immutable.
 */
public final class DecodedCell implements Serializable {
  private static final long serialVersionUID = 1L;

  private final byte[] family;
  private final byte[] qualifier;
  private final long timestamp;
  private final byte[] value;

  public DecodedCell(byte[] family, byte[] qualifier, long timestamp, byte[] value) {
    this.family = family;
    this.qualifier = qualifier;
    this.timestamp = timestamp;
    this.value = value;
  }

  public static DecodedCell of(Cell c) {
    return new DecodedCell(
        CellUtil.cloneFamily(c),
        CellUtil.cloneQualifier(c),
        c.getTimestamp(),
        CellUtil.cloneValue(c));
  }

  public byte[] family() {
    return family;
  }

  public byte[] qualifier() {
    return qualifier;
  }

  /** The cell timestamp (epoch millis as HBase stores it). */
  public long timestamp() {
    return timestamp;
  }

  public byte[] value() {
    return value;
  }

  public String familyString() {
    return new String(family, StandardCharsets.UTF_8);
  }

  public String qualifierString() {
    return new String(qualifier, StandardCharsets.UTF_8);
  }

  /**
   * Bytes this cell carries (family + qualifier + value + 8 for the timestamp), the scan's "bytes"
   * measure.
   */
  public long byteSize() {
    return family.length + qualifier.length + value.length + 8L;
  }

  /** {@link #byteSize()} of a cell, without copying it out. */
  public static long byteSize(Cell c) {
    return c.getFamilyLength() + c.getQualifierLength() + c.getValueLength() + 8L;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DecodedCell c
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
    return familyString()
        + ":"
        + qualifierString()
        + "@"
        + timestamp
        + "="
        + dev.rekey.rowkey.Hex.of(value);
  }
}

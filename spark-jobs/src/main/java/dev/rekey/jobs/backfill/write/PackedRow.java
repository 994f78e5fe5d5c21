package dev.rekey.jobs.backfill.write;

import dev.rekey.read.PackedCells;
import java.util.Arrays;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One re-keyed row as the sort shuffle carries it: the value of a (target row key, packed row)
 * record. Format: {@code int sourceKeyLength, sourceKey, long time, cells} where time is the target
 * key's time field ({@link Rekeyer#NO_TIME} if none: counted per hour without decoding the key
 * again) and cells are packed by {@link PackedCells}, already in HBase cell order (a Result's
 * order; the row is the same for all). Shuffling whole rows instead of cells halves the records and
 * lets the sort compare plain row keys.
 */
public final class PackedRow {
  private PackedRow() {}

  /**
   * Packs a source row's cells under its target key (each cell copied once, straight into the
   * packed row).
   */
  public static byte[] pack(byte[] sourceKey, byte[] targetKey, long time, Cell[] sourceCells) {
    int header = 4 + sourceKey.length + 8;
    byte[] out = new byte[header + PackedCells.sizeAs(targetKey.length, sourceCells)];
    Bytes.putInt(out, 0, sourceKey.length);
    System.arraycopy(sourceKey, 0, out, 4, sourceKey.length);
    Bytes.putLong(out, 4 + sourceKey.length, time);
    PackedCells.packAs(targetKey, sourceCells, out, header);
    return out;
  }

  public static byte[] sourceKey(byte[] packed) {
    return Arrays.copyOfRange(packed, 4, 4 + Bytes.toInt(packed, 0));
  }

  public static long time(byte[] packed) {
    return Bytes.toLong(packed, 4 + Bytes.toInt(packed, 0));
  }

  /** The cells, as KeyValues pointing into {@code packed}. */
  public static KeyValue[] cells(byte[] packed) {
    return PackedCells.unpack(packed, 4 + Bytes.toInt(packed, 0) + 8);
  }
}

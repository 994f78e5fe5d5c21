package dev.rekey.jobs.common;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A row's cells as one byte array: {@code int count, (int length, KeyValue bytes) x count} (KeyValue's own
 * serialization, tags dropped). What a job keeps of a row it caches: one array instead of a graph of ~20 objects per
 * row, which Spark's memory store sizes cheaply and the garbage collector does not have to trace; and the cells part
 * of the rows backfill shuffles.
 */
public final class PackedCells {
  private PackedCells() {
  }

  /** Bytes {@link #packInto} takes for these cells. */
  public static int size(Cell[] cells) {
    int size = 4;
    for (Cell c : cells) {
      size += 4 + length(c);
    }
    return size;
  }

  /** Packs the cells into {@code out} from {@code at} (room for {@link #size} bytes); returns the end offset. */
  public static int packInto(Cell[] cells, byte[] out, int at) {
    Bytes.putInt(out, at, cells.length);
    at += 4;
    for (Cell c : cells) {
      Bytes.putInt(out, at, length(c));
      at = KeyValueUtil.appendToByteArray(c, out, at + 4, false);
    }
    return at;
  }

  private static int length(Cell c) {
    return KeyValueUtil.length(c.getRowLength(), c.getFamilyLength(), c.getQualifierLength(), c.getValueLength(), 0,
        false);
  }

  /** The cells packed at {@code offset} of {@code buf}, as KeyValues pointing into it (not copied). */
  public static KeyValue[] unpack(byte[] buf, int offset) {
    KeyValue[] cells = new KeyValue[Bytes.toInt(buf, offset)];
    int at = offset + 4;
    for (int i = 0; i < cells.length; i++) {
      int len = Bytes.toInt(buf, at);
      cells[i] = new KeyValue(buf, at + 4, len);
      at += 4 + len;
    }
    return cells;
  }
}

package dev.rekey.jobs.backfill;

import java.io.Serializable;
import java.util.Comparator;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValue;

/**
 * HBase cell order (row, family, qualifier, timestamp descending, type) over serialized KeyValues: the order an HFile
 * must be written in.
 */
public final class CellOrder implements Comparator<byte[]>, Serializable {
  private static final long serialVersionUID = 1L;

  @Override
  public int compare(byte[] a, byte[] b) {
    return CellComparator.getInstance().compare(new KeyValue(a), new KeyValue(b));
  }

  /** The row of a serialized KeyValue: 4-byte key length, 4-byte value length, 2-byte row length, row. */
  static int rowLength(byte[] kv) {
    return ((kv[8] & 0xff) << 8) | (kv[9] & 0xff);
  }

  static final int ROW_OFFSET = 10;
}

package dev.rekey.jobs.compare;

import dev.rekey.common.DecodedCell;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link SideRow} as the bytes the compare's shuffle carries (pure): its side, bucket, row key
 * and cells, the natural key being the record's key. Packed rows go through a shuffle of byte
 * arrays and a sort in Spark's memory pages (the backfill's {@code TargetSort}) instead of Java
 * serialization of row objects.
 *
 * <p>Layout: side (1 byte: 0 old, 1 new), bucket (int), row key (int length + bytes), cell count
 * (int), per cell family, qualifier (int length + bytes each), timestamp (long), value (int length
 * + bytes).
 */
final class PackedSideRow {
  static final byte OLD = 0;
  static final byte NEW = 1;

  private PackedSideRow() {}

  static byte[] pack(SideRow r, byte side) {
    int size = 1 + 4 + 4 + r.rowKey().length + 4;
    for (DecodedCell c : r.cells()) {
      size += 4 + c.family().length + 4 + c.qualifier().length + 8 + 4 + c.value().length;
    }
    ByteBuffer b = ByteBuffer.allocate(size);
    b.put(side).putInt(r.bucket());
    bytes(b, r.rowKey());
    b.putInt(r.cells().size());
    for (DecodedCell c : r.cells()) {
      bytes(b, c.family());
      bytes(b, c.qualifier());
      b.putLong(c.timestamp());
      bytes(b, c.value());
    }
    return b.array();
  }

  /** The side a packed row is of ({@link #OLD} or {@link #NEW}). */
  static byte side(byte[] packed) {
    return packed[0];
  }

  /**
   * Whether two packed rows hold the same cells (family, qualifier, timestamp, value, in order),
   * whatever their sides and row keys: compared as bytes, without unpacking.
   */
  static boolean sameCells(byte[] a, byte[] b) {
    int from = cellsOffset(a);
    int fromB = cellsOffset(b);
    return a.length - from == b.length - fromB
        && Arrays.equals(a, from, a.length, b, fromB, b.length);
  }

  /** Where the cell count starts: after side, bucket and the row key with its length. */
  private static int cellsOffset(byte[] packed) {
    return 1 + 4 + 4 + ByteBuffer.wrap(packed, 5, 4).getInt();
  }

  /** The row, its natural key given (the record's key). */
  static SideRow unpack(byte[] naturalKey, byte[] packed) {
    ByteBuffer b = ByteBuffer.wrap(packed);
    b.get();
    int bucket = b.getInt();
    byte[] row = bytes(b);
    int n = b.getInt();
    List<DecodedCell> cells = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      byte[] f = bytes(b);
      byte[] q = bytes(b);
      long ts = b.getLong();
      cells.add(new DecodedCell(f, q, ts, bytes(b)));
    }
    return new SideRow(row, naturalKey, bucket, List.copyOf(cells));
  }

  private static void bytes(ByteBuffer b, byte[] v) {
    b.putInt(v.length).put(v);
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] v = new byte[b.getInt()];
    b.get(v);
    return v;
  }
}

package dev.rekey.jobs.backfill;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.KeyValue;

/**
 * One re-keyed row as the sort shuffle carries it: the value of a (target row key, packed row) record. Format:
 * {@code int sourceKeyLength, sourceKey, long time, int cellCount, (int kvLength, KeyValue bytes) x cellCount}, where
 * time is the target key's time field ({@link Rekeyer#NO_TIME} if none: counted per hour without decoding the key
 * again), cells already in
 * HBase cell order (a Result's order; the row is the same for all). Shuffling whole rows instead of cells halves the
 * records and lets the sort compare plain row keys.
 */
final class PackedRow {
  private PackedRow() {
  }

  static byte[] pack(byte[] sourceKey, long time, List<KeyValue> cells) {
    int size = 16 + sourceKey.length;
    for (KeyValue kv : cells) {
      size += 4 + kv.getLength();
    }
    ByteBuffer b = ByteBuffer.allocate(size);
    b.putInt(sourceKey.length).put(sourceKey).putLong(time).putInt(cells.size());
    for (KeyValue kv : cells) {
      b.putInt(kv.getLength()).put(kv.getBuffer(), kv.getOffset(), kv.getLength());
    }
    return b.array();
  }

  static byte[] sourceKey(byte[] packed) {
    ByteBuffer b = ByteBuffer.wrap(packed);
    byte[] src = new byte[b.getInt()];
    b.get(src);
    return src;
  }

  static long time(byte[] packed) {
    return ByteBuffer.wrap(packed).getLong(4 + ByteBuffer.wrap(packed).getInt(0));
  }

  static List<KeyValue> cells(byte[] packed) {
    ByteBuffer b = ByteBuffer.wrap(packed);
    b.position(4 + b.getInt(0) + 8);
    int n = b.getInt();
    List<KeyValue> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int len = b.getInt();
      out.add(new KeyValue(packed, b.position(), len));
      b.position(b.position() + len);
    }
    return out;
  }
}

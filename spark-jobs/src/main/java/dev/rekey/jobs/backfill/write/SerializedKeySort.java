package dev.rekey.jobs.backfill.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.UnsafeAlignedOffset;
import org.apache.spark.util.collection.unsafe.sort.PrefixComparators;
import org.apache.spark.util.collection.unsafe.sort.RecordComparator;
import org.apache.spark.util.collection.unsafe.sort.UnsafeExternalSorter;
import org.apache.spark.util.collection.unsafe.sort.UnsafeSorterIterator;
import scala.Tuple2;

/**
 * Sorts one partition's (row key, packed row) records by key in HBase's order, as bytes in Spark's
 * memory pages ({@link UnsafeExternalSorter}, the sorter under Spark SQL's sort), spilling to disk
 * when the task's execution memory runs short. Each record is copied into a page once and compared
 * by its key's first 8 bytes, then by the whole key only when those tie. What it replaces, the sort
 * shuffle's reduce side over object records, kept every record as two arrays until the sort ended,
 * sized the buffer by sampling its objects and compared through a comparator per pair: on a 6M-row
 * reordering backfill that, and the collections of the old generation it caused, was most of the
 * sorted path's extra time. Runs inside a Spark task.
 */
public final class SerializedKeySort {
  private SerializedKeySort() {}

  /** The records of {@code in}, by key (unsigned, byte by byte); ties keep no particular order. */
  public static Iterator<Tuple2<byte[], byte[]>> sorted(Iterator<Tuple2<byte[], byte[]>> in)
      throws IOException {
    return sorted(
        in,
        SparkEnv.get()
            .conf()
            .getInt("spark.shuffle.spill.numElementsForceSpillThreshold", Integer.MAX_VALUE));
  }

  /** As {@link #sorted(Iterator)}, spilling at least every {@code spillEvery} records. */
  public static Iterator<Tuple2<byte[], byte[]>> sorted(
      Iterator<Tuple2<byte[], byte[]>> in, int spillEvery) throws IOException {
    TaskContext tc = TaskContext.get();
    SparkEnv env = SparkEnv.get();
    UnsafeExternalSorter sorter =
        UnsafeExternalSorter.create(
            tc.taskMemoryManager(),
            env.blockManager(),
            env.serializerManager(),
            tc,
            KeyComparator::new,
            PrefixComparators.BINARY,
            4096,
            tc.taskMemoryManager().pageSizeBytes(),
            spillEvery,
            false); // a prefix sort alone would leave keys that share 8 bytes unordered
    while (in.hasNext()) {
      Tuple2<byte[], byte[]> t = in.next();
      byte[] key = t._1();
      byte[] value = t._2();
      sorter.insertKVRecord(
          key,
          Platform.BYTE_ARRAY_OFFSET,
          key.length,
          value,
          Platform.BYTE_ARRAY_OFFSET,
          value.length,
          prefix(key),
          false);
    }
    return new Sorted(sorter.getSortedIterator()); // the sorter frees its pages when the task ends
  }

  /** The key's first 8 bytes as an unsigned big-endian number (zero-padded): its sort prefix. */
  public static long prefix(byte[] key) {
    long p = 0;
    for (int i = 0; i < 8; i++) {
      p = (p << 8) | (i < key.length ? key[i] & 0xff : 0);
    }
    return p;
  }

  /** Unsigned byte order of two records' keys, read in place ({@code [key length][key][value]}). */
  static final class KeyComparator extends RecordComparator {
    @Override
    public int compare(
        Object leftBase,
        long leftOffset,
        int leftLength,
        Object rightBase,
        long rightOffset,
        int rightLength) {
      int uao = UnsafeAlignedOffset.getUaoSize();
      return compareKeys(
          leftBase,
          leftOffset + uao,
          UnsafeAlignedOffset.getSize(leftBase, leftOffset),
          rightBase,
          rightOffset + uao,
          UnsafeAlignedOffset.getSize(rightBase, rightOffset));
    }
  }

  private static final boolean BIG_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN;

  /**
   * Unsigned byte order of {@code l} bytes at {@code a} and {@code r} bytes at {@code b}: eight
   * bytes at a time as unsigned big-endian words where the platform reads unaligned words (keys
   * that tie on the sort prefix, such as one device's rows under an entity-first key, share their
   * first 10-20 bytes: a byte loop compared them one by one), then byte by byte.
   */
  public static int compareKeys(Object a, long at, int l, Object b, long bt, int r) {
    int n = Math.min(l, r);
    int i = 0;
    if (Platform.unaligned()) {
      for (; i + 8 <= n; i += 8) {
        long x = Platform.getLong(a, at + i);
        long y = Platform.getLong(b, bt + i);
        if (x != y) {
          return BIG_ENDIAN
              ? Long.compareUnsigned(x, y)
              : Long.compareUnsigned(Long.reverseBytes(x), Long.reverseBytes(y));
        }
      }
    }
    for (; i < n; i++) {
      int c = (Platform.getByte(a, at + i) & 0xff) - (Platform.getByte(b, bt + i) & 0xff);
      if (c != 0) {
        return c;
      }
    }
    return l - r;
  }

  /** The sorted records, each copied out of the sorter's pages as a new (key, value) pair. */
  private static final class Sorted implements Iterator<Tuple2<byte[], byte[]>> {
    private final UnsafeSorterIterator it;

    Sorted(UnsafeSorterIterator it) {
      this.it = it;
    }

    @Override
    public boolean hasNext() {
      return it.hasNext();
    }

    @Override
    public Tuple2<byte[], byte[]> next() {
      if (!it.hasNext()) {
        throw new NoSuchElementException();
      }
      try {
        it.loadNext();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Object base = it.getBaseObject();
      long at = it.getBaseOffset();
      int uao = UnsafeAlignedOffset.getUaoSize();
      int keyLength = UnsafeAlignedOffset.getSize(base, at);
      byte[] key = new byte[keyLength];
      byte[] value = new byte[it.getRecordLength() - keyLength - uao];
      Platform.copyMemory(base, at + uao, key, Platform.BYTE_ARRAY_OFFSET, keyLength);
      Platform.copyMemory(
          base, at + uao + keyLength, value, Platform.BYTE_ARRAY_OFFSET, value.length);
      return new Tuple2<>(key, value);
    }
  }
}

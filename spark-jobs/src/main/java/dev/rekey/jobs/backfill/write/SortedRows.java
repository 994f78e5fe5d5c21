package dev.rekey.jobs.backfill.write;

import java.util.Arrays;
import java.util.Iterator;
import scala.Tuple2;

/**
 * A sorted partition's (shuffle key, packed row) records as rows already under their target key;
 * the shuffle key's first {@code skip} bytes are not the target key's (the target's index, when
 * several sorted targets share one shuffle: {@link ByTarget}).
 */
final class SortedRows implements Iterator<RowRekeyer.Rekeyed> {
  private final Iterator<Tuple2<byte[], byte[]>> in;
  private final int skip;

  SortedRows(Iterator<Tuple2<byte[], byte[]>> in, int skip) {
    this.in = in;
    this.skip = skip;
  }

  @Override
  public boolean hasNext() {
    return in.hasNext();
  }

  @Override
  public RowRekeyer.Rekeyed next() {
    Tuple2<byte[], byte[]> t = in.next();
    byte[] packed = t._2();
    byte[] key = skip == 0 ? t._1() : Arrays.copyOfRange(t._1(), skip, t._1().length);
    return new RowRekeyer.Rekeyed(
        PackedRow.sourceKey(packed), key, PackedRow.time(packed), PackedRow.cells(packed));
  }
}

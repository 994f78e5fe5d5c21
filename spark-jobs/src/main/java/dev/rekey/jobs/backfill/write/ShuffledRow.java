package dev.rekey.jobs.backfill.write;

import java.util.function.Consumer;
import scala.Tuple2;

/**
 * The sorted path's map side: each rekeyed row handed on to the sort shuffle as (key, packed row),
 * its cells copied into the record during the call. The key is the target key, after the target's
 * index byte when one read feeds several targets' shuffle.
 */
record ShuffledRow(int target, Consumer<Tuple2<byte[], byte[]>> out)
    implements StreamRekeyer.Rows<Void> {
  /** One target's rows: keyed by the target key alone. */
  static ShuffledRow of(Consumer<Tuple2<byte[], byte[]>> out) {
    return new ShuffledRow(-1, out);
  }

  /** Target {@code index}'s rows in a shuffle of several: keyed by index byte | target key. */
  static ShuffledRow ofTarget(int index, Consumer<Tuple2<byte[], byte[]>> out) {
    return new ShuffledRow(index, out);
  }

  @Override
  public void add(RowRekeyer.Rekeyed r) {
    byte[] key = r.targetKey();
    if (target >= 0) {
      key = new byte[r.targetKey().length + 1];
      key[0] = (byte) target;
      System.arraycopy(r.targetKey(), 0, key, 1, r.targetKey().length);
    }
    out.accept(
        new Tuple2<>(key, PackedRow.pack(r.sourceKey(), r.targetKey(), r.time(), r.cells())));
  }

  @Override
  public boolean keepsCells() {
    return false; // copied into the shuffle record during the call
  }

  @Override
  public Void finish() {
    return null;
  }
}

package dev.rekey.jobs.repair;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import scala.Tuple2;

/**
 * Pairs one partition's packed rows, sorted by natural key, into (old, new) rows per key (pure): a
 * key on one side only pairs with null, a key with several rows on a side gives every combination
 * (a full outer join's pairs).
 */
final class KeyPairs implements Iterator<SideRow[]> {
  private final Iterator<Tuple2<byte[], byte[]>> sorted;
  private Tuple2<byte[], byte[]> ahead;
  private final List<SideRow[]> ready = new ArrayList<>();
  private int next;

  KeyPairs(Iterator<Tuple2<byte[], byte[]>> sorted) {
    this.sorted = sorted;
    this.ahead = sorted.hasNext() ? sorted.next() : null;
  }

  @Override
  public boolean hasNext() {
    while (next == ready.size()) {
      if (ahead == null) {
        return false;
      }
      fill();
    }
    return true;
  }

  @Override
  public SideRow[] next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return ready.get(next++);
  }

  /** The next key's rows, paired. */
  private void fill() {
    ready.clear();
    next = 0;
    byte[] key = ahead._1();
    List<SideRow> olds = new ArrayList<>(1);
    List<SideRow> news = new ArrayList<>(1);
    while (ahead != null && Arrays.equals(ahead._1(), key)) {
      SideRow r = PackedSideRow.unpack(key, ahead._2());
      (PackedSideRow.side(ahead._2()) == PackedSideRow.OLD ? olds : news).add(r);
      ahead = sorted.hasNext() ? sorted.next() : null;
    }
    if (olds.isEmpty()) {
      olds.add(null);
    }
    if (news.isEmpty()) {
      news.add(null);
    }
    for (SideRow o : olds) {
      for (SideRow n : news) {
        ready.add(new SideRow[] {o, n});
      }
    }
  }
}

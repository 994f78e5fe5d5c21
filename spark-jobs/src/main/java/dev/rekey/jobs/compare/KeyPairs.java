package dev.rekey.jobs.compare;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import scala.Tuple2;

/**
 * Pairs one partition's packed rows, sorted by natural key, into (old, new) rows per key (pure): a
 * key on one side only pairs with null, a key with several rows on a side gives every combination
 * (a full outer join's pairs). A key with one row a side whose cells are the same bytes gives no
 * pair: it matches, and the compare keeps only the keys that do not.
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

  /** The next key's rows, paired; none when they match byte for byte (one row a side). */
  private void fill() {
    ready.clear();
    next = 0;
    byte[] key = ahead._1();
    List<byte[]> olds = new ArrayList<>(1);
    List<byte[]> news = new ArrayList<>(1);
    while (ahead != null && Arrays.equals(ahead._1(), key)) {
      (PackedSideRow.side(ahead._2()) == PackedSideRow.OLD ? olds : news).add(ahead._2());
      ahead = sorted.hasNext() ? sorted.next() : null;
    }
    if (olds.size() == 1 && news.size() == 1 && PackedSideRow.sameCells(olds.get(0), news.get(0))) {
      // the same cells, versions and timestamps under both keys: nothing to decide, nothing to
      // unpack (nearly every key of a damaged bucket)
      return;
    }
    for (SideRow o : unpacked(key, olds)) {
      for (SideRow n : unpacked(key, news)) {
        ready.add(new SideRow[] {o, n});
      }
    }
  }

  /** A side's rows of the key; one null when the side has none. */
  private static List<SideRow> unpacked(byte[] key, List<byte[]> packed) {
    List<SideRow> out = new ArrayList<>(Math.max(1, packed.size()));
    for (byte[] p : packed) {
      out.add(PackedSideRow.unpack(key, p));
    }
    if (out.isEmpty()) {
      out.add(null);
    }
    return out;
  }
}

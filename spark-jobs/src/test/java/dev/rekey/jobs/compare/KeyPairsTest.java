package dev.rekey.jobs.compare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.rekey.common.DecodedCell;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

class KeyPairsTest {
  private static SideRow row(String nk, String rowKey, long ts, String value) {
    return new SideRow(
        rowKey.getBytes(),
        nk.getBytes(),
        7,
        List.of(new DecodedCell("d".getBytes(), "v".getBytes(), ts, value.getBytes())));
  }

  private static Tuple2<byte[], byte[]> rec(SideRow r, byte side) {
    return new Tuple2<>(r.naturalKey(), PackedSideRow.pack(r, side));
  }

  @Test
  void aPackedRowUnpacksToTheSameRow() {
    SideRow r =
        new SideRow(
            new byte[] {0, 5, (byte) 0xff},
            "nk".getBytes(),
            41,
            List.of(
                new DecodedCell("d".getBytes(), "v".getBytes(), 3L, new byte[] {1, 2}),
                new DecodedCell("d".getBytes(), new byte[0], Long.MAX_VALUE, new byte[0])));
    byte[] packed = PackedSideRow.pack(r, PackedSideRow.NEW);
    assertEquals(PackedSideRow.NEW, PackedSideRow.side(packed));
    SideRow back = PackedSideRow.unpack(r.naturalKey(), packed);
    assertArrayEquals(r.rowKey(), back.rowKey());
    assertArrayEquals(r.naturalKey(), back.naturalKey());
    assertEquals(41, back.bucket());
    assertEquals(2, back.cells().size());
    for (int i = 0; i < 2; i++) {
      DecodedCell a = r.cells().get(i);
      DecodedCell b = back.cells().get(i);
      assertArrayEquals(a.family(), b.family());
      assertArrayEquals(a.qualifier(), b.qualifier());
      assertEquals(a.timestamp(), b.timestamp());
      assertArrayEquals(a.value(), b.value());
    }
  }

  @Test
  void sortedRowsPairPerKeyAsAFullOuterJoinDoes() {
    // sorted by key; within a key the sides come in any order
    List<Tuple2<byte[], byte[]>> in =
        List.of(
            rec(row("a", "new-a", 1, "z"), PackedSideRow.NEW),
            rec(row("a", "old-a", 1, "x"), PackedSideRow.OLD),
            rec(row("b", "old-b", 1, "x"), PackedSideRow.OLD),
            rec(row("c", "new-c", 1, "x"), PackedSideRow.NEW),
            rec(row("d", "old-d1", 1, "x"), PackedSideRow.OLD),
            rec(row("d", "old-d2", 2, "y"), PackedSideRow.OLD),
            rec(row("d", "new-d", 1, "x"), PackedSideRow.NEW));
    List<String> pairs = new ArrayList<>();
    Iterator<SideRow[]> it = new KeyPairs(in.iterator());
    while (it.hasNext()) {
      SideRow[] p = it.next();
      pairs.add(name(p[0]) + "|" + name(p[1]));
    }
    assertEquals(
        List.of("old-a|new-a", "old-b|-", "-|new-c", "old-d1|new-d", "old-d2|new-d"), pairs);
  }

  @Test
  void aKeyWithTheSameCellsUnderBothRowKeysGivesNoPairUnlessASideHasMoreRows() {
    List<Tuple2<byte[], byte[]>> in =
        List.of(
            rec(row("a", "old-a", 1, "x"), PackedSideRow.OLD),
            rec(row("a", "new-a-longer-key", 1, "x"), PackedSideRow.NEW),
            rec(row("b", "old-b", 1, "x"), PackedSideRow.OLD),
            rec(row("b", "new-b", 2, "x"), PackedSideRow.NEW), // another timestamp
            rec(row("c", "old-c1", 1, "x"), PackedSideRow.OLD),
            rec(row("c", "old-c2", 1, "x"), PackedSideRow.OLD),
            rec(row("c", "new-c", 1, "x"), PackedSideRow.NEW));
    List<String> pairs = new ArrayList<>();
    Iterator<SideRow[]> it = new KeyPairs(in.iterator());
    while (it.hasNext()) {
      SideRow[] p = it.next();
      pairs.add(name(p[0]) + "|" + name(p[1]));
    }
    assertEquals(List.of("old-b|new-b", "old-c1|new-c", "old-c2|new-c"), pairs);
  }

  @Test
  void noRowsNoPairs() {
    assertFalse(new KeyPairs(List.<Tuple2<byte[], byte[]>>of().iterator()).hasNext());
    SideRow[] p =
        new KeyPairs(List.of(rec(row("a", "old-a", 1, "x"), PackedSideRow.OLD)).iterator()).next();
    assertNull(p[1]);
  }

  private static String name(SideRow r) {
    return r == null ? "-" : new String(r.rowKey());
  }
}

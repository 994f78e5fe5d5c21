package dev.rekey.jobs.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.TimeWindow;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.KeyValue;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Row digests and their order-independent bucket sums; bucket verdicts. Pure. */
@Tag("unit")
class RowDigestTest {
  private record C(String fam, String qual, long ts, String val) {}

  private static Digest128 row(String key, C... cells) {
    RowDigest d = new RowDigest().begin(key.getBytes(StandardCharsets.UTF_8));
    // the row key of the cells is not digested: any will do
    byte[] anyRow = {0};
    for (C c : cells) {
      d.cell(
          new KeyValue(
              anyRow,
              c.fam.getBytes(StandardCharsets.UTF_8),
              c.qual.getBytes(StandardCharsets.UTF_8),
              c.ts,
              c.val.getBytes(StandardCharsets.UTF_8)));
    }
    return d.finish();
  }

  private static Digest128 sum(List<Digest128> ds) {
    Digest128 s = Digest128.ZERO;
    for (Digest128 d : ds) {
      s = s.plus(d);
    }
    return s;
  }

  @Test
  void sameRowSameDigestAndEveryChangeShows() {
    C v = new C("d", "v", 100, "42");
    C s = new C("d", "s", 100, "ok");
    Digest128 base = row("k1", s, v);
    assertEquals(base, row("k1", s, v));
    assertNotEquals(base, row("k2", s, v), "natural key");
    assertNotEquals(base, row("k1", s, new C("d", "v", 100, "43")), "value");
    assertNotEquals(base, row("k1", s, new C("d", "v", 101, "42")), "timestamp");
    assertNotEquals(base, row("k1", s, new C("e", "v", 100, "42")), "family");
    assertNotEquals(base, row("k1", s, new C("d", "w", 100, "42")), "qualifier");
    assertNotEquals(base, row("k1", v), "lost cell");
    assertNotEquals(base, row("k1", s, v, new C("d", "x", 100, "")), "extra cell");
    // length prefixes: moving bytes between fields changes the digest
    assertNotEquals(row("k", new C("ab", "c", 1, "")), row("k", new C("a", "bc", 1, "")));
    assertEquals(32, base.hex().length());
  }

  @Test
  void bucketSumIsOrderIndependentAndCatchesLostExtraAndDuplicatedRows() {
    List<Digest128> rows = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      rows.add(row("k" + i, new C("d", "v", i, Integer.toString(i * 7))));
    }
    Digest128 total = sum(rows);
    List<Digest128> shuffled = new ArrayList<>(rows);
    Collections.shuffle(shuffled, new Random(1));
    assertEquals(total, sum(shuffled));
    // split into "regions" and merged in another order
    assertEquals(total, sum(rows.subList(100, 200)).plus(sum(rows.subList(0, 100))));

    List<Digest128> lost = new ArrayList<>(rows);
    lost.remove(17);
    assertNotEquals(total, sum(lost));
    List<Digest128> extra = new ArrayList<>(rows);
    extra.add(row("k999", new C("d", "v", 1, "1")));
    assertNotEquals(total, sum(extra));
    // a row twice: XOR would cancel it out, the sum does not
    List<Digest128> twice = new ArrayList<>(rows);
    twice.add(rows.get(3));
    twice.add(rows.get(3));
    assertNotEquals(total, sum(twice));
  }

  @Test
  void bucketVerdicts() {
    TimeBuckets b = new TimeBuckets(new TimeWindow(0, 3_000), 1_000);
    TimeBucketStats one = TimeBucketStats.row(2, row("a", new C("d", "v", 1, "x")));
    TimeBucketStats other = TimeBucketStats.row(2, row("a", new C("d", "v", 1, "y")));
    TimeBucketComparison same = TimeBucketComparison.of(b, 0, one, one, true);
    assertTrue(same.matches());
    assertEquals("ok", same.status());
    assertEquals("yes", same.digestOk());
    TimeBucketComparison empty = TimeBucketComparison.of(b, 1, null, null, true);
    assertTrue(empty.matches());
    assertTrue(empty.empty());
    assertEquals("empty", empty.status());
    assertEquals(1_000, empty.start());
    TimeBucketComparison changed = TimeBucketComparison.of(b, 2, one, other, true);
    assertTrue(changed.countsMatch());
    assertFalse(changed.matches());
    assertEquals("NO", changed.digestOk());
    assertEquals("MISMATCH", changed.status());
    assertTrue(
        TimeBucketComparison.of(b, 2, one, other, false).matches(),
        "counts only: content not compared");
    assertEquals("-", TimeBucketComparison.of(b, 2, one, other, false).digestOk());
    TimeBucketComparison lost = TimeBucketComparison.of(b, 2, one.plus(one), one, false);
    assertEquals(-1, lost.difference());
    assertFalse(lost.matches());
  }
}

package dev.rekey.jobs.backfill.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RetentionTest {
  private static Cell kv(String fam, String qual, long ts) {
    return new KeyValue(
        Bytes.toBytes("r"), Bytes.toBytes(fam), Bytes.toBytes(qual), ts, Bytes.toBytes(ts));
  }

  @Test
  void keepsEachFamilysCapOfNewestVersionsPerColumnAndCountsTheRest() {
    // a keeps 1, b keeps 2; the source holds 3 versions of a:x, a:y and b:x (HBase order: newest
    // first)
    Cell[] row = {
      kv("a", "x", 3),
      kv("a", "x", 2),
      kv("a", "x", 1),
      kv("a", "y", 5),
      kv("b", "x", 3),
      kv("b", "x", 2),
      kv("b", "x", 1)
    };
    long[] dropped = new long[1];
    Cell[] kept = new Retention(Map.of("a", 1, "b", 2), Integer.MAX_VALUE).trim(row, dropped);
    assertArrayEquals(new Cell[] {row[0], row[3], row[4], row[5]}, kept);
    assertEquals(3, dropped[0]);
  }

  @Test
  void nothingToTrimWhenEveryFamilyKeepsWhatIsRead() {
    Cell[] row = {kv("a", "x", 3), kv("a", "x", 2)};
    long[] dropped = new long[1];
    Retention limit = new Retention(Map.of("a", 3), 3);
    assertSame(row, limit.trim(row, dropped));
    assertEquals(0, dropped[0]);
    assertEquals(3, limit.readVersions());
  }

  @Test
  void countsCellsOlderThanTheirFamilysTtlWithoutDroppingThem() {
    Cell[] row = {kv("a", "x", 50), kv("a", "x", 150), kv("b", "x", 10)};
    long[] counts = new long[2];
    Retention r = new Retention(Map.of("a", 3, "b", 3), Map.of("a", 100L), 3);
    assertSame(row, r.trim(row, counts));
    assertEquals(0, counts[0]);
    assertEquals(1, counts[1], "a:x@50 is older than family a's TTL allows; b has no TTL");
  }
}

package dev.rekey.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class KeyRangesTest {
  @Test
  void cutsATimeLeadingRangeIntoEqualIncreasingParts() {
    byte[] lo = Bytes.add(Bytes.toBytes(1_764_374_400_000L), new byte[16]);
    byte[] hi = Bytes.add(Bytes.toBytes(1_764_374_400_000L + 86_400_000L), new byte[16]);
    byte[][] b = KeyRanges.cut(lo, hi, 4);
    assertEquals(5, b.length);
    assertArrayEquals(lo, b[0]);
    assertArrayEquals(hi, b[4]);
    for (int i = 1; i < b.length; i++) {
      assertTrue(Bytes.compareTo(b[i - 1], b[i]) < 0);
    }
    // six hours per part: the cut follows the timestamp
    assertEquals(1_764_374_400_000L + 21_600_000L, Bytes.toLong(b[1], 0));
  }

  @Test
  void nothingToCut() {
    assertNull(KeyRanges.cut(Bytes.toBytes("b"), Bytes.toBytes("a"), 2), "empty range");
    assertNull(KeyRanges.cut(Bytes.toBytes("a"), Bytes.toBytes("b"), 1), "k = 1");
  }

  @Test
  void boundsOfTheJobsOwnScanWin() {
    assertArrayEquals(Bytes.toBytes("c"), KeyRanges.max(Bytes.toBytes("c"), Bytes.toBytes("b")));
    assertArrayEquals(
        Bytes.toBytes("b"),
        KeyRanges.minStop(new byte[0], Bytes.toBytes("b")),
        "empty stop = no end");
    assertArrayEquals(
        Bytes.toBytes("b"), KeyRanges.minStop(Bytes.toBytes("c"), Bytes.toBytes("b")));
    assertArrayEquals(
        Bytes.toBytes("c"), KeyRanges.minStop(Bytes.toBytes("c"), Bytes.toBytes("d")));
  }
}

package dev.rekey.rowkey;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.apache.hadoop.hbase.util.RegionSplitter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Split points, pinned byte for byte against HBase's own RegionSplitter algorithms. */
@Tag("unit")
class SplitPointsTest {
  static final int[] COUNTS = {
    2, 3, 4, 5, 7, 10, 16, 17, 31, 32, 64, 96, 100, 128, 255, 256, 257, 1000, 1024, 4096
  };

  static void assertSame(byte[][] hbase, List<byte[]> ours, String what) {
    assertEquals(hbase.length, ours.size(), what + ": count");
    for (int i = 0; i < hbase.length; i++) {
      assertArrayEquals(hbase[i], ours.get(i), what + ": split " + i);
    }
  }

  @Test
  void uniformMatchesHBaseUniformSplit() {
    for (int n : COUNTS) {
      assertSame(
          new RegionSplitter.UniformSplit().split(n), SplitPoints.uniform(n), "uniform " + n);
    }
    assertEquals(0, SplitPoints.uniform(1).size());
  }

  @Test
  void hexStringMatchesHBaseHexStringSplit() {
    for (int n : COUNTS) {
      assertSame(
          new RegionSplitter.HexStringSplit().split(n), SplitPoints.hexString(n), "hex " + n);
    }
    assertThrows(IllegalArgumentException.class, () -> SplitPoints.hexString(1));
  }

  @Test
  void twoBytePrefix64RegionsIsMultiplesOf1024() {
    List<byte[]> s = SplitPoints.prefix(2, 64);
    assertEquals(63, s.size());
    for (int i = 0; i < 63; i++) {
      int v = ((s.get(i)[0] & 0xff) << 8) | (s.get(i)[1] & 0xff);
      assertEquals((i + 1) * 1024, v);
      assertEquals(2, s.get(i).length);
    }
    assertArrayEquals(new byte[] {0x04, 0x00}, s.get(0));
    assertArrayEquals(new byte[] {(byte) 0xfc, 0x00}, s.get(62));
    assertEquals(0, SplitPoints.prefix(2, 1).size());
    assertThrows(IllegalArgumentException.class, () -> SplitPoints.prefix(1, 257));
  }

  @Test
  void saltBoundaries() {
    List<byte[]> s = SplitPoints.salt(16);
    assertEquals(15, s.size());
    for (int i = 0; i < 15; i++) {
      assertArrayEquals(new byte[] {(byte) (i + 1)}, s.get(i));
    }
    assertEquals(255, SplitPoints.salt(256).size());
    assertArrayEquals(new byte[] {(byte) 255}, SplitPoints.salt(256).get(254));
    assertEquals(0, SplitPoints.salt(1).size());
    assertThrows(IllegalArgumentException.class, () -> SplitPoints.salt(257));
    assertThrows(IllegalArgumentException.class, () -> SplitPoints.salt(0));
  }

  @Test
  void layoutSplitPoints() {
    assertEquals(15, TestPaths.shipped("telemetry-v2").splitPoints(16).size());
    assertThrows(
        IllegalArgumentException.class, () -> TestPaths.shipped("telemetry-v2").splitPoints(32));
    assertSame(
        new RegionSplitter.UniformSplit().split(8),
        TestPaths.shipped("telemetry-v1").splitPoints(8),
        "v1");
    List<byte[]> ev = TestPaths.shipped("events-v2").splitPoints(64);
    assertArrayEquals(new byte[] {0x04, 0x00}, ev.get(0));
  }
}

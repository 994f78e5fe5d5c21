package dev.rekey.jobs.analyze;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.SplitPoints;
import dev.rekey.testing.Layouts;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The statistics equal figures computed directly from generated keys. */
@Tag("unit")
class KeyStatsTest {
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");

  @Test
  void histogramAndBusiestEighthOfAHotspotKey() {
    List<KeySample> s = GeneratedKeys.telemetry(V1, 5000, 50);
    long[] h = KeyStats.leadingByteHistogram(GeneratedKeys.keys(s));
    long[] direct = new long[256];
    for (KeySample k : s) {
      direct[k.key()[0] & 0xff]++;
    }
    assertArrayEquals(direct, h);
    assertEquals(5000, h[0]); // epoch millis of 2026 start with byte 0x00
    assertEquals(0, KeyStats.busiestEighth(h));
    assertEquals(1.0, KeyStats.busiestEighthShare(h));
  }

  @Test
  void histogramOfASaltedKeyMatchesTheSaltOfEachReading() {
    List<KeySample> s = GeneratedKeys.telemetry(V2, 4000, 40);
    long[] h = KeyStats.leadingByteHistogram(GeneratedKeys.keys(s));
    long[] bySalt = new long[256];
    for (int i = 0; i < 4000; i++) {
      bySalt[
          V2.saltOf(
              Map.of("ts", GeneratedKeys.ts(i, 4000), "deviceId", GeneratedKeys.device(i % 40)))]++;
    }
    assertArrayEquals(bySalt, h);
  }

  @Test
  void busiestEighthOfAnEvenKeySpace() {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 256 * 10; i++) {
      keys.add(new byte[] {(byte) i, 1});
    }
    long[] h = KeyStats.leadingByteHistogram(keys);
    assertEquals(0.125, KeyStats.busiestEighthShare(h), 1e-12);
    keys.add(new byte[] {(byte) 0xe0});
    assertEquals(7, KeyStats.busiestEighth(KeyStats.leadingByteHistogram(keys)));
  }

  @Test
  void monotonicLeadIsDetected() {
    assertEquals(1.0, KeyStats.appendFraction(GeneratedKeys.telemetry(V1, 3000, 30)));
    double salted = KeyStats.appendFraction(GeneratedKeys.telemetry(V2, 3000, 30));
    // only the top bucket's newest rows append: about 1/16
    assertTrue(
        salted > 0.02 && salted < 0.12, "salted keys append about 1/N of the time: " + salted);
    // directly: count writes above every earlier key
    List<KeySample> s = GeneratedKeys.telemetry(V2, 3000, 30);
    byte[] max = s.get(0).key();
    int appends = 0;
    for (int i = 1; i < s.size(); i++) {
      if (Arrays.compareUnsigned(s.get(i).key(), max) > 0) {
        appends++;
        max = s.get(i).key();
      }
    }
    assertEquals(appends / 2999.0, salted, 1e-12);
  }

  @Test
  void recentRowsOfAHotspotAllLandInTheLastRegion() {
    List<KeySample> s = GeneratedKeys.telemetry(V1, 2400, 24);
    KeyStats.RecentWindow w = KeyStats.recentWindow(s);
    assertEquals("the last hour's", w.label());
    long direct = s.stream().filter(k -> k.ts() > s.get(s.size() - 1).ts() - 3_600_000L).count();
    assertEquals(direct, w.rows().size());
    // four regions split on time: everything recent is in the last one
    List<byte[]> starts =
        KeyStats.startKeys(
            List.of(
                V1.encode(
                    Map.of("ts", GeneratedKeys.ts(600, 2400), "deviceId", GeneratedKeys.device(0))),
                V1.encode(
                    Map.of(
                        "ts", GeneratedKeys.ts(1200, 2400), "deviceId", GeneratedKeys.device(0))),
                V1.encode(
                    Map.of(
                        "ts", GeneratedKeys.ts(1800, 2400), "deviceId", GeneratedKeys.device(0)))));
    long[] recent = KeyStats.rowsPerRegion(starts, w.keys());
    assertArrayEquals(new long[] {0, 0, 0, direct}, recent);
    assertEquals(3, KeyStats.argMax(recent));
    assertArrayEquals(
        new long[] {600, 600, 600, 600}, KeyStats.rowsPerRegion(starts, GeneratedKeys.keys(s)));
  }

  @Test
  void shortSamplesUseTheNewestTenth() {
    List<KeySample> s = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      s.add(new KeySample(new byte[] {(byte) i}, 1000 + i));
    }
    KeyStats.RecentWindow w = KeyStats.recentWindow(s);
    assertEquals("the newest 10% of", w.label());
    assertEquals(10, w.rows().size());
    assertEquals(1099, w.rows().get(9).ts());
  }

  /**
   * The binomial tail against sums of exact binomial coefficients: 24 or more of 30 fair coin flips
   * is C(30,24) + ... + C(30,30) = 768,212 of 2^30 outcomes.
   */
  @Test
  void binomialTailEqualsTheExactSum() {
    assertEquals(768_212 / Math.pow(2, 30), KeyStats.binomialTail(30, 24, 0.5), 1e-15);
    assertEquals(1.0, KeyStats.binomialTail(30, 0, 0.5));
    assertEquals(0.0, KeyStats.binomialTail(30, 31, 0.5));
    assertEquals(Math.pow(1.0 / 16, 10), KeyStats.binomialTail(10, 10, 1.0 / 16), 1e-25);
    // P(X >= 1) = 1 - (15/16)^10
    assertEquals(1 - Math.pow(15.0 / 16, 10), KeyStats.binomialTail(10, 1, 1.0 / 16), 1e-12);
    // a whole default sample in one of 16 regions: far beyond chance, and no NaN on the way
    assertEquals(0.0, KeyStats.binomialTail(100_000, 100_000, 1.0 / 16));
  }

  /**
   * One row is always "100%" in one region, whatever the spread: an even spread does that every
   * time. The busiest of bins is bounded by bins × one bin's tail.
   */
  @Test
  void oneRowInOneRegionIsChance() {
    assertEquals(1.0, KeyStats.chanceOfBusiest(1, 1, 16));
    assertEquals(1.0, KeyStats.chanceOfBusiest(500, 500, 1), "one region: nothing to compare");
    assertEquals(2 * 768_212 / Math.pow(2, 30), KeyStats.chanceOfBusiest(30, 24, 2), 1e-15);
    assertTrue(KeyStats.chanceOfBusiest(30, 30, 16) < 1e-30);
  }

  /** The entity is the key's fields other than time: telemetry-v1's deviceId. */
  @Test
  void busiestEntityIsTheFieldsOtherThanTime() {
    List<KeySample> s = new ArrayList<>(GeneratedKeys.telemetry(V1, 100, 10));
    s.add(
        new KeySample(
            V1.encode(Map.of("ts", GeneratedKeys.DAY_START, "deviceId", GeneratedKeys.device(3))),
            GeneratedKeys.DAY_START));
    s.add(new KeySample(new byte[] {1, 2, 3}, GeneratedKeys.DAY_START)); // undecodable: skipped
    KeyStats.Entity e = KeyStats.busiestEntity(V1, GeneratedKeys.keys(s));
    assertEquals(11, e.rows());
    assertEquals("deviceId 0x0000000000dec0de0000000000000003", e.label());
    assertEquals(null, KeyStats.busiestEntity(null, GeneratedKeys.keys(s)));
  }

  @Test
  void regionOfUsesUnsignedOrder() {
    List<byte[]> starts = KeyStats.startKeys(SplitPoints.salt(4));
    assertEquals(0, KeyStats.regionOf(starts, new byte[] {0, (byte) 0xff}));
    assertEquals(1, KeyStats.regionOf(starts, new byte[] {1}));
    assertEquals(
        3, KeyStats.regionOf(starts, new byte[] {(byte) 0xc8})); // 200 sorts after 3, not before 0
    assertEquals(0, KeyStats.regionOf(KeyStats.startKeys(List.of()), new byte[] {9}));
  }

  @Test
  void skewEqualsMaxOverMeanComputedDirectly() {
    List<KeySample> s = GeneratedKeys.telemetry(V2, 8000, 80);
    long[] counts =
        KeyStats.rowsPerRegion(KeyStats.startKeys(SplitPoints.salt(16)), GeneratedKeys.keys(s));
    long[] direct = new long[16];
    for (KeySample k : s) {
      direct[k.key()[0]]++;
    }
    assertArrayEquals(direct, counts);
    long max = Arrays.stream(direct).max().getAsLong();
    assertEquals(max / (8000 / 16.0), KeyStats.maxOverMean(counts), 1e-12);
    assertEquals(4.0, KeyStats.maxOverMean(new long[] {8, 0, 0, 0}));
    assertEquals(1.0, KeyStats.maxOverMean(new long[] {5, 5}));
  }

  @Test
  void hexSplitsOnRawPrefixAreRecognised() {
    KeyLayout events = Layouts.shipped("events-v2");
    List<byte[]> raw = new ArrayList<>();
    List<byte[]> hexText = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      byte[] k = events.encode(Map.of("userId", "user-" + i, "ts", 1_700_000_000_000L + i));
      raw.add(k);
      hexText.add(dev.rekey.rowkey.Hex.of(k).substring(0, 8).getBytes(StandardCharsets.US_ASCII));
    }
    assertTrue(KeyStats.hexSplitsOnRawKeys(SplitPoints.hexString(16), raw));
    assertFalse(KeyStats.hexSplitsOnRawKeys(SplitPoints.hexString(16), hexText));
    assertFalse(KeyStats.hexSplitsOnRawKeys(SplitPoints.uniform(16), raw));
  }
}

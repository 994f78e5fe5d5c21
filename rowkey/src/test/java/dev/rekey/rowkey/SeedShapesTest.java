package dev.rekey.rowkey;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The shipped layouts reproduce the seeds' own key builders byte for byte. The seed code below is
 * copied from ../shared/seeds/000 (EventKeys) and 002 (TelemetryKey) with only the class nesting
 * changed, and uses HBase's own {@code Bytes} from the test classpath, so it is independent of the
 * library code.
 */
@Tag("unit")
class SeedShapesTest {

  // ---- seed 000, verbatim ----
  static final class EventKeys {
    static final int PREFIX_BYTES = 2; // 65,536 prefixes

    private static byte[] prefix(byte[] id) {
      try {
        MessageDigest md5 = MessageDigest.getInstance("MD5"); // distribution, not security
        byte[] h = md5.digest(id);
        return Bytes.head(h, PREFIX_BYTES);
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }

    /** prefix | userId | 0x00 | (Long.MAX_VALUE - tsMillis) */
    public static byte[] rowKey(String userId, long tsMillis) {
      byte[] id = userId.getBytes(StandardCharsets.UTF_8);
      return Bytes.add(
          prefix(id), Bytes.add(id, new byte[] {0}), Bytes.toBytes(Long.MAX_VALUE - tsMillis));
    }

    /** Start and stop rows that cover every event of one user, newest first. */
    public static byte[][] userRange(String userId) {
      byte[] id = userId.getBytes(StandardCharsets.UTF_8);
      byte[] start = Bytes.add(prefix(id), id, new byte[] {0});
      byte[] stop = Bytes.add(prefix(id), id, new byte[] {1});
      return new byte[][] {start, stop};
    }
  }

  // ---- seed 002, verbatim ----
  static final class TelemetryKey {
    public static final int BUCKETS = 16; // fixed at table creation
    private static final int DEV_LEN = 16;

    /** Row key = salt(1) | epochMillis(8, big-endian) | deviceId(16). */
    public static byte[] rowKey(long epochMillis, byte[] deviceId) {
      if (deviceId.length != DEV_LEN) throw new IllegalArgumentException("deviceId");
      byte[] natural = Bytes.add(Bytes.toBytes(epochMillis), deviceId);
      return Bytes.add(new byte[] {salt(natural)}, natural);
    }

    /** Salt over the whole natural key, so even one busy device spreads. */
    public static byte salt(byte[] natural) {
      return (byte) Math.floorMod(Arrays.hashCode(natural), BUCKETS);
    }
  }

  // the legacy key named in the issue: ts (Bytes.toBytes(long)) | deviceId
  static byte[] legacyTelemetryKey(long ts, byte[] deviceId) {
    return Bytes.add(Bytes.toBytes(ts), deviceId);
  }

  static final int N = 20_000;

  static String randomUserId(Random r) {
    StringBuilder sb = new StringBuilder();
    int len = r.nextInt(24);
    for (int i = 0; i < len; i++) {
      int kind = r.nextInt(10);
      int cp;
      if (kind < 6) {
        cp = 0x20 + r.nextInt(0x5f); // ASCII printable
      } else if (kind < 8) {
        cp = 0x80 + r.nextInt(0x7ff - 0x80); // 2-byte UTF-8
      } else if (kind < 9) {
        cp = 0x800 + r.nextInt(0xd7ff - 0x800); // 3-byte
      } else {
        cp = 0x10000 + r.nextInt(0x10ffff - 0x10000); // 4-byte (surrogate pair)
      }
      sb.appendCodePoint(cp);
    }
    return sb.toString();
  }

  /** A random 16-byte device id. */
  static byte[] randomDevice(Random r) {
    byte[] dev = new byte[16];
    r.nextBytes(dev);
    return dev;
  }

  static long randomTs(Random r) {
    switch (r.nextInt(4)) {
      case 0:
        return 1_600_000_000_000L + (long) (r.nextDouble() * 200_000_000_000L);
      case 1:
        return r.nextLong() & Long.MAX_VALUE;
      case 2:
        return r.nextInt(1000);
      default:
        return r.nextBoolean() ? 0 : Long.MAX_VALUE;
    }
  }

  @Test
  void eventsV2MatchesSeed000EventKeys() {
    KeyLayout layout = TestPaths.shipped("events-v2");
    Random r = new Random(0xE0E0L);
    for (int i = 0; i < N; i++) {
      String user = randomUserId(r);
      long ts = randomTs(r);
      byte[] seed = EventKeys.rowKey(user, ts);
      byte[] ours = layout.encode(Map.of("userId", user, "ts", ts));
      assertArrayEquals(seed, ours, () -> "user=" + user + " ts=" + ts);
      DecodedKey d = layout.decode(seed);
      assertEquals(user, d.get("userId"));
      assertEquals(ts, d.get("ts"));
      byte[][] range = EventKeys.userRange(user);
      KeyRange kr = KeyRangePlanner.entityRange(layout, Map.of("userId", user));
      assertArrayEquals(range[0], kr.start());
      assertArrayEquals(range[1], kr.stop());
    }
  }

  @Test
  void telemetryV2MatchesSeed002TelemetryKey() {
    KeyLayout layout = TestPaths.shipped("telemetry-v2");
    Random r = new Random(0x7E1EL);
    for (int i = 0; i < N; i++) {
      long ts = randomTs(r);
      byte[] dev = randomDevice(r);
      byte[] seed = TelemetryKey.rowKey(ts, dev);
      byte[] ours = layout.encode(Map.of("ts", ts, "deviceId", dev));
      assertArrayEquals(seed, ours, () -> "ts=" + ts + " dev=" + Bytes.toStringBinary(dev));
      DecodedKey d = layout.decode(seed);
      assertEquals(ts, d.get("ts"));
      assertArrayEquals(dev, (byte[]) d.get("deviceId"));
      assertEquals(seed[0] & 0xff, d.salt());
    }
  }

  @Test
  void telemetryV1MatchesLegacyKey() {
    KeyLayout layout = TestPaths.shipped("telemetry-v1");
    Random r = new Random(0x7E10L);
    for (int i = 0; i < N; i++) {
      long ts = randomTs(r);
      byte[] dev = randomDevice(r);
      assertArrayEquals(
          legacyTelemetryKey(ts, dev), layout.encode(Map.of("ts", ts, "deviceId", dev)));
    }
  }

  @Test
  void rekeyV1ToV2EqualsSeedKey() {
    KeyLayout v1 = TestPaths.shipped("telemetry-v1");
    KeyLayout v2 = TestPaths.shipped("telemetry-v2");
    Random r = new Random(42);
    for (int i = 0; i < 2000; i++) {
      long ts = randomTs(r);
      byte[] dev = randomDevice(r);
      byte[] rekeyed = v2.encode(v1.decode(legacyTelemetryKey(ts, dev)).fields());
      assertArrayEquals(TelemetryKey.rowKey(ts, dev), rekeyed);
    }
  }
}

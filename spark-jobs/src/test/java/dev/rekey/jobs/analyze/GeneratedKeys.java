package dev.rekey.jobs.analyze;

import dev.rekey.rowkey.KeyLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Telemetry readings over one day, keyed with a given layout: what the tests compute figures from
 * directly.
 */
final class GeneratedKeys {
  static final long DAY_START = 1_767_225_600_000L; // 2026-01-01T00:00Z
  static final long DAY_MS = 86_400_000L;

  private GeneratedKeys() {}

  static byte[] device(int d) {
    return ByteBuffer.allocate(16).putLong(0xdec0deL).putLong(d).array();
  }

  static long ts(int i, int n) {
    return DAY_START + (long) i * DAY_MS / n;
  }

  /** n readings in time order, device i % devices, cell timestamp = event time. */
  static List<KeySample> telemetry(KeyLayout layout, int n, int devices) {
    List<KeySample> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      long ts = ts(i, n);
      out.add(new KeySample(layout.encode(Map.of("ts", ts, "deviceId", device(i % devices))), ts));
    }
    return out;
  }

  static List<byte[]> keys(List<KeySample> s) {
    List<byte[]> k = new ArrayList<>(s.size());
    s.forEach(x -> k.add(x.key()));
    return k;
  }
}

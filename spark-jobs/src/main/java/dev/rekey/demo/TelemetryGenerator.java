package dev.rekey.demo;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

/**
 * Deterministic synthetic telemetry: reading i comes from device (i mod devices) at {@code start +
 * i * spacing}, so event time grows with i (the legacy key's hotspot) and every reading has a
 * distinct time, hence a distinct legacy key. The same arguments always give the same readings,
 * which lets tests recompute any report from the generator instead of trusting the job.
 */
public final class TelemetryGenerator {
  /** 2026-11-29T00:00:00Z: the demo's day. */
  public static final long DEFAULT_START = Instant.parse("2026-11-29T00:00:00Z").toEpochMilli();

  private final long rows;
  private final int devices;
  private final long start;
  private final long spacingMillis;
  private final byte[][] deviceIds;

  public TelemetryGenerator(long rows, int devices, long start, long windowMillis) {
    if (rows < 1 || devices < 1) {
      throw new IllegalArgumentException(
          "rows and devices must be at least 1 (got rows=" + rows + ", devices=" + devices + ")");
    }
    this.rows = rows;
    this.devices = devices;
    this.start = start;
    this.spacingMillis = Math.max(1, windowMillis / rows);
    this.deviceIds = new byte[devices][];
    for (int d = 0; d < devices; d++) {
      deviceIds[d] = deviceId(d);
    }
  }

  /** rows readings spread over one day from {@link #DEFAULT_START}. */
  public static TelemetryGenerator oneDay(long rows, int devices) {
    return new TelemetryGenerator(rows, devices, DEFAULT_START, 24L * 3600 * 1000);
  }

  public long rows() {
    return rows;
  }

  public int devices() {
    return devices;
  }

  public TelemetryReading reading(long i) {
    long ts = start + i * spacingMillis;
    // a fixed mix of i: readings look random but are reproducible
    long mixed = (i * 0x9E3779B97F4A7C15L) >>> 33;
    long value = mixed % 1000;
    return new TelemetryReading(
        ts, deviceIds[(int) (i % devices)], value, value >= 950 ? "alert" : "ok");
  }

  /** 16 bytes: the name-based (MD5) UUID of "device-N". */
  public static byte[] deviceId(int n) {
    UUID u = UUID.nameUUIDFromBytes(("device-" + n).getBytes(StandardCharsets.UTF_8));
    return ByteBuffer.allocate(16)
        .putLong(u.getMostSignificantBits())
        .putLong(u.getLeastSignificantBits())
        .array();
  }
}

package dev.rekey.demo;

/**
 * One synthetic sensor reading of the demo's legacy table.
 *
 * @param ts event time, epoch millis (also the cell timestamp)
 * @param deviceId 16 bytes (a name-based UUID of "device-N")
 * @param value the reading
 * @param status "ok", or "alert" for high readings
 */
public record TelemetryReading(long ts, byte[] deviceId, long value, String status) {}

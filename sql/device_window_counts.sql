-- Per device and 5-minute window: readings, min/avg/max reading and alerts. The anomaly-detection query
-- ("all readings in a five-minute window"), over a time-first telemetry table.
-- Layouts: telemetry-v1 or telemetry-v2 (fields ts = reading time in epoch millis, deviceId = 16 bytes).
-- Run: bin/rekey scan --table telemetry_v2 --layout conf/layouts/telemetry-v2.yaml --day 2026-11-29 --report sql/device_window_counts.sql
-- @param from long             window start, epoch millis, inclusive (the scan sets it from --from/--day)
-- @param to long               window end, epoch millis, exclusive (the scan sets it from --to/--day)
-- @param window_minutes long = 5   window width in minutes (--param window_minutes=15)
-- @column d:v=long:reading     the reading: cell d:v, an 8-byte big-endian long
-- @column d:s=string:status    cell d:s, "ok" or "alert"
SELECT
  deviceId_hex                                             AS device,
  floor(ts / (${window_minutes} * 60000)) * (${window_minutes} * 60000) AS window_start_ms,
  timestamp_millis(floor(ts / (${window_minutes} * 60000)) * (${window_minutes} * 60000)) AS window_start,
  COUNT(*)                                                 AS readings,
  MIN(reading)                                             AS min_reading,
  MAX(reading)                                             AS max_reading,
  ROUND(AVG(reading), 2)                                   AS avg_reading,
  SUM(CASE WHEN status = 'alert' THEN 1 ELSE 0 END)        AS alerts
FROM scan_rows
WHERE ts >= ${from} AND ts < ${to}
GROUP BY deviceId_hex, floor(ts / (${window_minutes} * 60000))
ORDER BY window_start_ms, device

-- Per user and UTC day: events, first and last event time in the window (the nightly all-user report).
-- Layout: events-v2 (fields userId, ts = event time in epoch millis; one HBase row per event).
-- Run: bin/rekey scan --table events_v2 --layout conf/layouts/events-v2.yaml --day 2026-11-29 --report sql/user_daily_activity.sql
-- @param from long   window start, epoch millis, inclusive (the scan sets it from --from/--day)
-- @param to long     window end, epoch millis, exclusive (the scan sets it from --to/--day)
SELECT
  userId,
  date_from_unix_date(CAST(floor(ts / 86400000) AS INT)) AS day,
  COUNT(*)                  AS events,
  MIN(ts)                   AS first_event_ms,
  MAX(ts)                   AS last_event_ms,
  timestamp_millis(MIN(ts)) AS first_event,
  timestamp_millis(MAX(ts)) AS last_event
FROM scan_rows
WHERE ts >= ${from} AND ts < ${to}
GROUP BY userId, date_from_unix_date(CAST(floor(ts / 86400000) AS INT))
ORDER BY userId, day

#!/usr/bin/env bash
# Benchmark: what window pruning saves. The scan job for one day of a telemetry-v2 table (salt | ts | deviceId, 16
# salt regions) holding DAYS days, against the scan job over the whole table, both with sql/device_window_counts.sql,
# on the live table and on a snapshot, same JVM (JVM start excluded), alternating; checks the day's report equals
# the full scan's report cut to that day.
#
#   bench/scan/prune.sh [DAYS] [ROWS_PER_DAY] [ROUNDS]     (default 30 days, 50000 rows a day, 2 rounds)
#
# Data: bench_prune_telemetry_<DAYS>x<ROWS_PER_DAY>, written once and reused. Uses the embedded
# HBase (started if needed; left running). Record results in docs/benchmarks.md with this command.
set -euo pipefail
REKEY_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$REKEY_HOME"
DAYS="${1:-30}"
PER_DAY="${2:-50000}"
ROUNDS="${3:-2}"
mkdir -p target/bench/prune
bin/rekey hbase start >/dev/null
source bench/scan/common.sh
java "${FLAGS[@]}" ${BENCH_JVM_ARGS:-} -cp "$CP" bench/scan/PruneBench.java "$DAYS" "$PER_DAY" "$ROUNDS" 2>target/bench/prune/stderr.log

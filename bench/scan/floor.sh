#!/usr/bin/env bash
# Benchmark: the shared reader's snapshot read pass against the raw HFile pass (the floor), interleaved in one warm
# JVM, for the issue's target (read within 1.5x of the floor). Profile it with BENCH_JVM_ARGS, e.g.
#   BENCH_JVM_ARGS="-XX:StartFlightRecording=filename=target/bench/floor.jfr,settings=profile" bench/scan/floor.sh
#
#   bench/scan/floor.sh [ROWS] [REGIONS] [ROUNDS] [MASTER]     (default 2000000 rows, 8 regions, 6 rounds, local[2])
# The summary leaves out the first -Dbench.warmRounds=W rounds (default 1), which warm the JIT up (BENCH_JVM_ARGS).
#
# Data: bench/scan/run.sh's table (bench_scan_events, events-v2, flushed and major-compacted), written if it does not
# hold ROWS rows in REGIONS regions. Uses the embedded HBase (started if needed; left running).
set -euo pipefail
REKEY_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$REKEY_HOME"
mkdir -p target/bench/scan
bin/rekey hbase start >/dev/null
source bench/scan/common.sh
java "${FLAGS[@]}" ${BENCH_JVM_ARGS:-} -cp "$CP" bench/scan/FloorBench.java "${1:-2000000}" "${2:-8}" "${3:-6}" \
  "${4:-local[2]}" 2>target/bench/scan/floor-stderr.log

#!/usr/bin/env bash
# Benchmark: rows/s of rekey's region-parallel scan (ScanJob, one Spark task per region) vs a single client scanner
# over the same table, same JVM, same run, alternating rounds; prints the ratio per round and the mean.
#
#   bench/scan/run.sh [ROWS] [REGIONS] [ROUNDS] [MASTER]     (default 400000 rows, 8 regions, 3 rounds, local[2])
#
# Data: bench_scan_events (layout events-v2, pre-split along the hash prefix, flushed and compacted), written once
# and reused while it has ROWS rows in REGIONS regions. Uses the embedded HBase (started if needed; left running).
# Both sides decode every key with the same RowDecoder; the parallel side also keeps the per-region stats (no report,
# so no rows kept). Each round also times the snapshot read pass (the jobs' read: rows streamed as cells and counted;
# and the same read as Results) against the raw HFile pass (HFileFloor: HBase's own HFile reader over the snapshot's
# store files, one thread per core: the floor), and the scan job on the snapshot with sql/user_daily_activity.sql
# (rows kept for Spark SQL), its read phase against the same floor. Each result is appended to target/bench/results.jsonl
# (bench/record.py); bench/collect.py puts the run's figures into docs/benchmarks.json and docs/benchmarks.md.
# REKEY_JAR=<another build's spark jar> runs the same bench over that build (A/B).
set -euo pipefail
REKEY_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# what names this run in its result records (bench/record.py)
source "$(dirname "$0")/../lib/run-record.sh"
bench_run_start "$0" "$@"
cd "$REKEY_HOME"
ROWS="${1:-400000}"
REGIONS="${2:-8}"
ROUNDS="${3:-3}"
MASTER="${4:-local[2]}"
mkdir -p target/bench/scan
bin/rekey hbase start >/dev/null
source bench/scan/common.sh
java "${FLAGS[@]}" ${BENCH_JVM_ARGS:-} -cp "$CP" bench/scan/ScanBench.java "$ROWS" "$REGIONS" "$ROUNDS" "$MASTER" "$RUN_DIR/hbase.pid" 2>target/bench/scan/stderr.log

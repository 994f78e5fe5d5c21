#!/usr/bin/env bash
# Benchmark: the nightly one-day report on a time-tiered entity-first table. A DAYS-day time-first events table
# backfilled into events-v2 (8 regions) with --time-tiers P1D; on its snapshot, the one-day scan job with
# sql/user_daily_activity.sql (the other days' files skipped) against the full-table scan job (target: the day in
# at most 1/5 of the time) and against the same day on the same events backfilled without tiers (one file per region
# holding every day: every cell read, as before tiers); same JVM, JVM start excluded; the reports must agree (the
# day's = the untiered day's = the full report cut to the day).
#
#   bench/scan/tiers.sh [DAYS] [PER_DAY] [ROUNDS]     (default 30 days, 33334 events a day (~1M), 3 rounds + warm-up)
#
# Data: bench_tiers_<DAYS>x<PER_DAY>_v1 (and its snapshot), the targets _scan (tiered) and _scan_plain, written once
# and reused.
# Uses the embedded HBase (started if needed; left running). Each round is appended to target/bench/results.jsonl
# (bench/record.py); bench/collect.py puts the run's figures into docs/benchmarks.json and docs/benchmarks.md.
set -euo pipefail
REKEY_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$(dirname "$0")/../lib/run-record.sh"
bench_run_start "$0" "$@"
cd "$REKEY_HOME"
DAYS="${1:-30}"
PER_DAY="${2:-33334}"
ROUNDS="${3:-3}"
mkdir -p target/bench/tiers
bin/rekey hbase start >/dev/null
source bench/scan/common.sh
java "${FLAGS[@]}" ${BENCH_JVM_ARGS:-} -cp "$CP" bench/scan/TierBench.java scan "$DAYS" "$PER_DAY" "$ROUNDS" \
  2>"target/bench/tiers/stderr-scan.log"

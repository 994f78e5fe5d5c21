#!/usr/bin/env bash
# Benchmark: the cost of time tiers for the backfill. The same snapshot of a DAYS-day time-first events table
# backfilled into an empty events-v2 table (8 regions, sorted path) with --time-tiers P1D (one HFile per day per
# region: 30 instead of 1) and without, alternating, same JVM, JVM start excluded (target: tiered at most 1.3x the
# time, i.e. a ratio untiered/tiered of at least 0.77). The data and the runner are bench/scan/tiers.sh's
# (bench/scan/TierBench.java, mode backfill).
#
#   bench/backfill/tiers.sh [DAYS] [PER_DAY] [ROUNDS]     (default 30 days, 33334 events a day (~1M), 2 rounds + warm-up)
set -euo pipefail
source "$(dirname "$0")/../lib/run-record.sh"
bench_run_start "$0" "$@"
cd "$(dirname "$0")/../.."
REKEY_HOME="$PWD"
mkdir -p target/bench/tiers
bin/rekey hbase start >/dev/null
source bench/scan/common.sh
java "${FLAGS[@]}" ${BENCH_JVM_ARGS:-} -cp "$CP" bench/scan/TierBench.java backfill "${1:-30}" "${2:-33334}" "${3:-2}" \
  2>target/bench/tiers/stderr-backfill.log

#!/usr/bin/env bash
# bench/backfill: rekey (HFiles + bulk load) vs a BufferedMutator Put copy of the same snapshot, in one run, on the
# test run's embedded HBase (started and stopped by the test JVM) and a local[2] SparkSession.
# Usage: bench/backfill/run.sh [ROWS]   (default 1000000). Results: grep BENCH in the output; record them in
# docs/benchmarks.md with this command.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROWS="${1:-1000000}"
mvn -B -o -pl spark-jobs -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=BackfillBench -Dfailsafe.failIfNoSpecifiedTests=false -Dgroups=bench -DexcludedGroups= \
  -Dbench.rows="$ROWS" -Dbench.jvmArgs="${BENCH_JVM_ARGS:-}" >"target/bench-backfill.log" 2>&1 || { tail -40 target/bench-backfill.log; exit 1; }
grep -h "BENCH\|^  \|source:" spark-jobs/target/failsafe-reports/dev.rekey.bench.BackfillBench-output.txt

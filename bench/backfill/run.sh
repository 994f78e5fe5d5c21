#!/usr/bin/env bash
# bench/backfill: every backfill path over the same snapshot, in one run — rekey (salting migration in source order,
# sorted, with row verification; a reordering migration), a BufferedMutator Put copy, hbase-spark's bulkLoad, the
# MapReduce HFileOutputFormat2 job, the read pass and the two floors (read + HFile write in source order as a Spark
# job, and without Spark: HBase's HFile reader and writer, a thread per core; -Dbench.floorRounds, default 3, the first
# -Dbench.warmRounds, default 1, left out as the JIT's warm-up) — on the test run's embedded HBase (started and
# stopped by the test JVM) and a local[2] SparkSession.
# Usage: bench/backfill/run.sh [ROWS] [all|rekey|reorder|repeat|read|baselines|targets]   (default 1000000 all; "rekey" = only the default rekey
# path, for the growth table; "reorder" = only the reordering migration; "repeat" = the two floors, the default rekey path and the reordering migration, 3 rounds interleaved in one JVM (-Dbench.repeatRounds=N; rekey against each floor recorded per round); "read" = only the jobs' read (rows streamed as cells) against the raw HFile pass and the raw pass as a Spark job, by wall time and by the tasks' CPU, 8 rounds interleaved (-Dbench.readRounds=N), the medians leaving out the first -Dbench.warmRounds=W (default 1) that warm the JIT up; "baselines" = only hbase-spark and MapReduce,
# a quick check that they run; "targets" = TargetsBench, the migration to two tables: both targets in one run against
# the two single-target runs, the sorted path into telemetry-by-device against its sort floor (no Spark) and a Put copy,
# and one device's history from the history table against the salted table's merged read, p50;
# -Dbench.targetRounds=N, default 5; the one run first in even rounds; each round also times one read pass of the
# snapshot, all that the one run can save; -Dbench.sourceCompression=GZ -Dbench.sourceEncoding=FAST_DIFF in
# BENCH_JVM_ARGS give the source family a production table's settings, recorded as variants of their own).
# The bench's Spark is the tests' local[2] with spark.default.parallelism=4; BENCH_JVM_ARGS=-Drekey.test.parallelism=2
# gives it what bin/rekey's local master has on 2 cores (the backfill's write tasks follow it). Its JVM gets bin/rekey's
# collector (bin/lib/collector.sh) unless BENCH_JVM_ARGS names one (-XX:+UseG1GC: the JVM's own default), and its logging.
# Results: grep BENCH in the output; each ratio is appended to target/bench/results.jsonl (bench/record.py), and
# bench/collect.py puts the run's figures into docs/benchmarks.json and docs/benchmarks.md.
set -euo pipefail
# what names this run in its result records (bench/record.py)
source "$(dirname "$0")/../lib/run-record.sh"
bench_run_start "$0" "$@"
cd "$(dirname "$0")/../.."
ROWS="${1:-1000000}"
VARIANTS="${2:-all}"
mkdir -p target
# the collector bin/rekey gives its JVM (serial on <= 2 cores), unless BENCH_JVM_ARGS names one: the bench's JVM
# stands for bin/rekey's local master (the Put copy's time did not depend on it: 51.7 s with G1, 51.9 s serial)
source bin/lib/collector.sh
GC_OPT="$(rekey_collector "${BENCH_JVM_ARGS:-}")"
PAGES_OPT="$(rekey_huge_pages "${BENCH_JVM_ARGS:-}")"
# and bin/rekey's logging (conf/log4j2.properties: warnings and errors only), unless BENCH_JVM_ARGS names a config:
# without it the JVM logs every INFO line of Spark and HBase (~50 per snapshot read: the restore's, each task's)
LOG_OPT=""
[[ "${BENCH_JVM_ARGS:-}" == *log4j2.configurationFile* ]] || LOG_OPT="-Dlog4j2.configurationFile=$PWD/conf/log4j2.properties"
BENCH_JVM_ARGS="${BENCH_JVM_ARGS:-}${GC_OPT:+ $GC_OPT}${PAGES_OPT:+ $PAGES_OPT}${LOG_OPT:+ $LOG_OPT}"
BENCH_CLASS=BackfillBench
[[ "$VARIANTS" == targets ]] && BENCH_CLASS=TargetsBench
mvn -B -o -pl spark-jobs -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test="$BENCH_CLASS" -Dfailsafe.failIfNoSpecifiedTests=false -Dgroups=bench -DexcludedGroups= \
  -Dbench.rows="$ROWS" -Dbench.variants="$VARIANTS" -Dbench.jvmArgs="${BENCH_JVM_ARGS:-}" >"target/bench-backfill.log" 2>&1 || { tail -40 target/bench-backfill.log; exit 1; }
grep -h "BENCH\|^  \|source:\|history of" "spark-jobs/target/failsafe-reports/dev.rekey.bench.$BENCH_CLASS-output.txt"

#!/usr/bin/env bash
# Benchmark: campaigns and shards (docs/campaigns.md), one run, ratios recorded by bench/record.py:
#   campaign — 8 small legacy tables (ROWS readings each, default 200k) re-keyed into telemetry-v2 tables by ONE
#     `rekey campaign run` (create-table, snapshot, backfill, reconcile per table; 2 tables at once, one Spark
#     application) vs the same commands one after another with bin/rekey (create-table, a snapshot, backfill,
#     reconcile: each a JVM and, for the Spark ones, a Spark start). Target: the campaign ≥ 1.5x faster.
#   shards — one table of 4*ROWS readings in 8 regions: `backfill --shard i/4` for i = 1..4 (one command each) vs one
#     `backfill` of it into a fresh target. Target: the shards within 1.2x of the whole (ratio ≥ 0.83).
#   rerun of a shard — shards 1..3 loaded, then shard 4 alone (as after it failed) vs the whole backfill.
#     Target: ≤ 0.35x of the whole (ratio ≥ 2.86).
#
#   bench/campaign/run.sh [ROWS] [ROUNDS]     (default 200000 rows, 1 round; SKIP_LOAD=1 reuses the source tables)
#
# Spark local[2] throughout; times are wall clock per command, JVM start included. Write it down, run it on a quiet
# machine (load average ≤ 1.5 at the start, recorded with the run).
set -euo pipefail
REKEY_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$(dirname "$0")/../lib/run-record.sh"
bench_run_start "$0" "$@"
cd "$REKEY_HOME"
ROWS="${1:-200000}"
ROUNDS="${2:-1}"
OUT="$REKEY_HOME/target/bench/campaign"
mkdir -p "$OUT"
JAR="spark-jobs/target/rekey-spark-jobs-0.1.0-SNAPSHOT-spark.jar"
V1=conf/layouts/telemetry-v1.yaml
V2=conf/layouts/telemetry-v2.yaml
N=8
SRC=bench_campaign_src_
BIG=bench_campaign_big_

bin/rekey hbase start
RUN_DIR="${REKEY_RUN_DIR:-$REKEY_HOME/.rekey}/hbase"
CP="$JAR:$(cat spark-jobs/target/launch.classpath):$RUN_DIR/client"
tables() { java -cp "$CP" bench/campaign/Tables.java "$@" 2>>"$OUT/tables.log"; }
if [[ -z "${SKIP_LOAD:-}" ]]; then
  tables load "$SRC" "$N" "$ROWS" 4
  tables load "$BIG" 1 "$((ROWS * 4))" 8
fi
secs() { date +%s.%N; }
elapsed() { python3 -c "import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 2))" "$1" "$2"; }
ratio() { python3 -c "import sys; print(round(float(sys.argv[1]) / float(sys.argv[2]), 3))" "$1" "$2"; }
run() { # LOG command...: fails the bench with the log's tail
  local log="$OUT/$1.log"
  shift
  "$@" >"$log" 2>&1 || { echo "failed: $*"; tail -30 "$log"; exit 1; }
}
clean_targets() { # drop every target and the campaign's and the commands' snapshots; empty the staging dirs
  local names=()
  for ((i = 0; i < N; i++)); do
    names+=("${SRC}${i}_v2" "${SRC}${i}_snap" "rekey-campaign-bench-${SRC}${i}")
  done
  tables drop "${names[@]}" "${BIG}0_v2" "${BIG}0_snap"
  rm -rf "$OUT/staging" "$OUT/reports"
}

for ((r = 1; r <= ROUNDS; r++)); do
  # --- campaign vs the same commands one after another
  clean_targets
  {
    printf 'version: 1\nname: bench\njobs_at_once: 2\nstaging_root: %s\nreport_root: %s\ntables:\n' \
      "file://$OUT/staging" "$OUT/reports"
    for ((i = 0; i < N; i++)); do
      printf '  - source: {table: %s}\n    old_layout: telemetry-v1\n    targets:\n' "${SRC}${i}"
      printf '      - {table: %s_v2, layout: telemetry-v2, splits: salt, families: ["d:bloom=row"]}\n' "${SRC}${i}"
      printf '    reconcile: {bucket: 1h}\n    repair: true\n'
    done
  } >"$OUT/plan.yaml"
  t0=$(secs)
  run campaign bin/rekey campaign run --master 'local[2]' "$OUT/plan.yaml"
  campaign_s=$(elapsed "$t0" "$(secs)")

  clean_targets
  t0=$(secs)
  for ((i = 0; i < N; i++)); do
    t="${SRC}${i}"
    run "seq-create-$i" bin/rekey create-table --table "${t}_v2" --layout "$V2" --splits salt --family d:bloom=row
    run "seq-snapshot-$i" java -cp "$CP" bench/campaign/Tables.java snapshot "$t" "${t}_snap"
    run "seq-backfill-$i" bin/rekey backfill --master 'local[2]' --source-snapshot "${t}_snap" --source-layout "$V1" \
      --target-table "${t}_v2" --target-layout "$V2" --staging "file://$OUT/staging/seq-$t"
    run "seq-reconcile-$i" bin/rekey reconcile --master 'local[2]' --old-snapshot "${t}_snap" --old-layout "$V1" \
      --new-table "${t}_v2" --new-layout "$V2" --bucket 1h --out "$OUT/reports/seq-$t"
  done
  sequential_s=$(elapsed "$t0" "$(secs)")
  echo "round $r: campaign of $N tables ${campaign_s} s, the same commands one after another ${sequential_s} s"
  python3 bench/record.py campaign "$r" "campaign-8-tables" "commands-one-after-another" "$((N * ROWS))" \
    "$campaign_s" "$sequential_s" "$(ratio "$sequential_s" "$campaign_s")" 1.5

  # --- 4 shards vs one backfill; a rerun of one shard
  big="${BIG}0"
  fresh_big() {
    tables drop "${big}_v2"
    run big-create bin/rekey create-table --table "${big}_v2" --layout "$V2" --splits salt --family d:bloom=row
  }
  tables drop "${big}_snap"
  tables snapshot "$big" "${big}_snap"
  backfill_big() { # LOG [options]
    local log="$1"
    shift
    run "$log" bin/rekey backfill --master 'local[2]' --source-snapshot "${big}_snap" --source-layout "$V1" \
      --target-table "${big}_v2" --target-layout "$V2" "$@"
  }
  fresh_big
  t0=$(secs)
  backfill_big big-whole --staging "file://$OUT/staging/big-whole"
  whole_s=$(elapsed "$t0" "$(secs)")
  fresh_big
  t0=$(secs)
  for i in 1 2 3; do backfill_big "big-shard-$i" --staging "file://$OUT/staging/big-shards" --shard "$i/4"; done
  three_s=$(elapsed "$t0" "$(secs)")
  t0=$(secs)
  backfill_big big-shard-4 --staging "file://$OUT/staging/big-shards" --shard 4/4
  fourth_s=$(elapsed "$t0" "$(secs)")
  shards_s=$(python3 -c "import sys; print(round(float(sys.argv[1]) + float(sys.argv[2]), 2))" "$three_s" "$fourth_s")
  echo "round $r: one backfill ${whole_s} s; 4 shards ${shards_s} s; the 4th shard alone ${fourth_s} s"
  python3 bench/record.py campaign "$r" "backfill-4-shards" "one-backfill" "$((ROWS * 4))" \
    "$shards_s" "$whole_s" "$(ratio "$whole_s" "$shards_s")" 0.833
  python3 bench/record.py campaign "$r" "rerun-of-one-shard" "one-backfill" "$((ROWS * 4))" \
    "$fourth_s" "$whole_s" "$(ratio "$whole_s" "$fourth_s")" 2.857
done

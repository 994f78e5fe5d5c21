#!/usr/bin/env bash
# Benchmark: rekey reconcile (counts, and --digest) across a key change vs HBase's HashTable, in one run.
# HashTable cannot compare across layouts (it assumes both tables share row keys), so it runs on the new table alone:
# the cost of hashing one side, which is the least a same-key SyncTable reconciliation would pay. The honest same-key
# baseline is HashTable over one table plus `SyncTable --dryrun` over a same-key copy (bench_telemetry_v2b, the same
# layout): HBase's own reconciliation of two tables; rekey reconciles the same pair from their snapshots
# (same-snap-counts) and the key-changed pair (snap-counts), in the same round.
#
#   bench/reconcile/run.sh [ROWS] [ROUNDS]      (default 1000000 rows, 2 rounds; SKIP_LOAD=1 reuses the tables)
#   VARIANTS="snap-counts same-snap-counts" bench/reconcile/run.sh ...   (only these rekey variants; default: all)
#
# Data: LoadLegacy.java writes the demo's telemetry_v1 (ts | deviceId, 1 region; `bin/rekey demo --rows ROWS` did
# until the demo grew dual writes after its snapshot) and snapshots it; CopyRekeyed.java copies it with
# Puts into bench_telemetry_v2 (salt | ts | deviceId, 16 regions). Same cores for both tools: Spark local[2] and
# MapReduce's LocalJobRunner with 2 map slots. Times are wall clock per command, JVM start included (both pay it);
# rekey's own in-job seconds are printed too. Each result is appended to target/bench/results.jsonl (bench/record.py),
# and bench/collect.py puts the run's figures into docs/benchmarks.json and docs/benchmarks.md.
set -euo pipefail
REKEY_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# what names this run in its result records (bench/record.py)
source "$(dirname "$0")/../lib/run-record.sh"
bench_run_start "$0" "$@"
cd "$REKEY_HOME"
ROWS="${1:-1000000}"
ROUNDS="${2:-2}"
OUT="$REKEY_HOME/target/bench/reconcile"
mkdir -p "$OUT"
JAR="spark-jobs/target/rekey-spark-jobs-0.1.0-SNAPSHOT-spark.jar"

bin/rekey hbase start
RUN_DIR="${REKEY_RUN_DIR:-$REKEY_HOME/.rekey}/hbase"
CP="$JAR:$(cat spark-jobs/target/launch.classpath):$RUN_DIR/client"
if [[ -z "${SKIP_LOAD:-}" ]]; then
  java -cp "$CP" bench/reconcile/LoadLegacy.java "$ROWS" 1000 2>"$OUT/load.log" | grep readings
  java -cp "$CP" bench/reconcile/CopyRekeyed.java telemetry_v1 conf/layouts/telemetry-v1.yaml \
    bench_telemetry_v2 conf/layouts/telemetry-v2.yaml 16 2>"$OUT/copy.log" | grep copied
  rm -f "$OUT/v2b.rows"
fi
if [[ "$(cat "$OUT/v2b.rows" 2>/dev/null)" != "$ROWS" ]]; then
  # the same-key twin for SyncTable: the same layout, the same rows and cells (timestamps included)
  java -cp "$CP" bench/reconcile/CopyRekeyed.java bench_telemetry_v2 conf/layouts/telemetry-v2.yaml \
    bench_telemetry_v2b conf/layouts/telemetry-v2.yaml 16 2>"$OUT/copy-v2b.log" | grep copied
  echo "$ROWS" > "$OUT/v2b.rows"
fi

secs() { date +%s.%N; }
reconcile() {
  local src=(--old-table telemetry_v1 --new-table bench_telemetry_v2)
  local old_layout=conf/layouts/telemetry-v1.yaml
  [[ "$1" == snap* ]] && src=(--old-snapshot telemetry_v1_snap --new-snapshot bench_telemetry_v2_snap)
  [[ "$1" == via* ]] && src+=(--via-snapshot)
  if [[ "$1" == same* ]]; then
    src=(--old-snapshot bench_telemetry_v2_snap --new-snapshot bench_telemetry_v2b_snap)
    old_layout=conf/layouts/telemetry-v2.yaml
  fi
  bin/rekey reconcile --master 'local[2]' "${src[@]}" --old-layout "$old_layout" \
    --new-layout conf/layouts/telemetry-v2.yaml --bucket 1h \
    --from 2026-11-29 --to 2026-11-30 --out "$OUT/$1" "${@:2}" > "$OUT/$1.log" 2>&1
  grep -E "^MATCH" "$OUT/$1.log" >/dev/null || { echo "reconcile $1 did not match:"; tail -20 "$OUT/$1.log"; exit 1; }
}
# log4j2.level: the MapReduce job's counters are logged at INFO (log4j2's default configuration logs errors only)
MR_JAVA=(java -XX:+IgnoreUnrecognizedVMOptions -Dlog4j2.level=INFO --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -cp "$CP")
hashtable() {
  rm -rf "$OUT/hashtable"
  "${MR_JAVA[@]}" org.apache.hadoop.hbase.mapreduce.HashTable -Dmapreduce.local.map.tasks.maximum=2 \
    --batchsize=32000 --numhashfiles=16 bench_telemetry_v2 "file://$OUT/hashtable" > "$OUT/hashtable.log" 2>&1
}
# SyncTable --dryrun: scans the target table, hashes it in HashTable's batches and compares them with the source's
# hash files (a mismatched batch would be re-read from the source); writes nothing. Its counters must show every
# batch matched.
synctable() {
  "${MR_JAVA[@]}" org.apache.hadoop.hbase.mapreduce.SyncTable -Dmapreduce.local.map.tasks.maximum=2 \
    --dryrun=true "file://$OUT/hashtable" bench_telemetry_v2 bench_telemetry_v2b > "$OUT/synctable.log" 2>&1
  if grep -qE "HASHES_NOT_MATCHED=[1-9]" "$OUT/synctable.log"; then
    echo "SyncTable --dryrun did not match every batch:"; grep -E "HASHES|ROWS|CELLS" "$OUT/synctable.log"; exit 1
  fi
  grep -q "HASHES_MATCHED=" "$OUT/synctable.log" ||
    echo "warning: SyncTable printed no counters (see $OUT/synctable.log): matched batches not checked"
}

job() { python3 -c "import json;print(round(json.load(open('$OUT/$1/reconcile.json'))['seconds'],1))"; }
read -r -a VARS <<< "${VARIANTS:-counts digest snap-counts snap-digest via-counts via-digest same-snap-counts}"
printf "%-6s %-22s %9s %9s %12s %10s %12s %10s\n" round variant wall_s job_s hashtable_s ht/variant ht+sync_s \
  ht+sync/variant
# untimed: the first command after a build writes bin/rekey's class-data archive (docs/benchmarks.md) and warms the
# page cache, once per install; every round then runs as a user's later commands do
reconcile "${VARS[0]}" >/dev/null
for r in $(seq 1 "$ROUNDS"); do
  declare -A wall=()
  for v in "${VARS[@]}"; do
    extra=(); [[ "$v" == *digest ]] && extra=(--digest)
    t0=$(secs); reconcile "$v" "${extra[@]}"; t1=$(secs)
    wall[$v]=$(echo "$t1 - $t0" | bc)
  done
  t0=$(secs); hashtable; t1=$(secs); h=$(echo "$t1 - $t0" | bc)
  t0=$(secs); synctable; t1=$(secs); s=$(echo "$t1 - $t0" | bc)
  hs=$(echo "$h + $s" | bc)
  echo "round $r: HashTable (bench_telemetry_v2) $h s, SyncTable --dryrun (bench_telemetry_v2b against it) $s s" \
    "($(grep -oE "HASHES_MATCHED=[0-9]+" "$OUT/synctable.log" | tail -1 || echo "HASHES_MATCHED unknown") batches matched)"
  for v in "${VARS[@]}"; do
    printf "%-6s %-22s %9.1f %9s %12.1f %9.2fx %12.1f %9.2fx\n" "$r" "$v" "${wall[$v]}" "$(job "$v")" "$h" \
      "$(echo "$h / ${wall[$v]}" | bc -l)" "$hs" "$(echo "$hs / ${wall[$v]}" | bc -l)"
    target=1; [[ "$v" == *counts ]] && target=2
    python3 bench/record.py reconcile "$r" "$v" "HBase HashTable (new table only)" "$((ROWS * 2))" "${wall[$v]}" "$h" \
      "$(echo "$h / ${wall[$v]}" | bc -l)" "$target"
    python3 bench/record.py reconcile "$r" "$v" "HBase HashTable + SyncTable --dryrun (same-key pair)" \
      "$((ROWS * 2))" "${wall[$v]}" "$hs" "$(echo "$hs / ${wall[$v]}" | bc -l)" 1
  done
done
echo "variants: counts / digest = both live tables (RegionServer RPC); snap-* = both snapshots (HFiles read in the"
echo "Spark tasks); via-* = both live tables with --via-snapshot (snapshots taken and deleted inside the timing);"
echo "same-snap-counts = the same-key pair (bench_telemetry_v2 vs bench_telemetry_v2b) from their snapshots."
echo "wall_s includes JVM + Spark start; job_s is rekey's own time. HashTable: live new table, 2 map slots;"
echo "ht+sync = HashTable plus SyncTable --dryrun over the same-key twin (live tables, LocalJobRunner, 2 map slots)."

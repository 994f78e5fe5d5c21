#!/usr/bin/env bash
# Benchmark: rekey repair end to end (find the buckets that differ, compare them cell by cell, write, compare again)
# against the alternatives, in one run:
#   key change — telemetry_v1 (ts | deviceId) vs bench_telemetry_v2 (salt | ts | deviceId, 16 regions), damaged in 3
#     of 48 half-hour buckets of the day: `rekey repair` (every bucket compared first; or from the reconcile.json
#     that found the damage; and that with --max-put-cells 0: the HFile path) vs a full
#     backfill of the same snapshot into a fresh table (the other way to get a correct new table). Target: repair at
#     most 1/10 of the backfill's time.
#   same key — bench_telemetry_v2 vs its copy bench_telemetry_v2b (the same layout), damaged the same way: `rekey
#     repair` vs HBase's HashTable + SyncTable doing the real repair (--dryrun=false), both ending equal (checked with
#     `rekey reconcile --digest`, untimed). Target: rekey 2x faster.
#
# Floors, same run: the repair command with nothing to repair, a dry run comparing only the 3 damaged buckets, and the
# command given no bucket at all (its fixed cost: JVM, Spark, the old side's snapshot); and, to tell this design's cost
# from any design's, the least reading any repair of this damage must do with no Spark at all (bench/repair/
# ReadFloor.java: a JVM with the HBase client and rekey's class-data archive, the old side's snapshot, both sides of
# the 3 buckets read once with HBase's own readers; nothing compared or written).
#
#   bench/repair/run.sh [ROWS] [ROUNDS]     (default 1000000 rows, 2 rounds; SKIP_LOAD=1 reuses the tables)
#
# Damage (bench/repair/Damage.java, a plain HBase client), scaled from the issue's 6M-row case (20k rows deleted, 1k
# cells changed, 1k older versions dropped): ROWS/300 rows deleted, ROWS/6000 cells changed at their own timestamps,
# ROWS/6000 cells deleted at their exact timestamps (the readings keep one version per cell), spread over buckets 5,
# 20 and 41. The day is cut in 48 half-hour buckets (--bucket 30m): the bench's data is one day, the issue's 48 hourly
# buckets were two. Row Deletes leave markers that would hide the repair's cells: on the key-change pair the repair
# compacts them itself (--compact-if-masked, inside its time); on the same-key pair the damaged table is compacted
# before either tool runs (SyncTable does not look for markers: its Puts would stay hidden).
#
# Same cores for every tool: Spark local[2]; MapReduce's LocalJobRunner with 2 map slots. Times are wall clock per
# command, JVM start included. Each ratio (baseline / rekey) is appended to target/bench/results.jsonl
# (bench/record.py); bench/collect.py puts the figures into docs/benchmarks.json and docs/benchmarks.md.
set -euo pipefail
REKEY_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$(dirname "$0")/../lib/run-record.sh"
bench_run_start "$0" "$@"
cd "$REKEY_HOME"
ROWS="${1:-1000000}"
ROUNDS="${2:-2}"
OUT="$REKEY_HOME/target/bench/repair"
mkdir -p "$OUT"
JAR="spark-jobs/target/rekey-spark-jobs-0.1.0-SNAPSHOT-spark.jar"
V1=conf/layouts/telemetry-v1.yaml
V2=conf/layouts/telemetry-v2.yaml
DAY=1795910400000 # 2026-11-29T00:00:00Z, the readings' day
HALF_HOUR=1800000
BUCKETS=5,20,41
RANGE=(--from 2026-11-29 --to 2026-11-30 --bucket 30m)

bin/rekey hbase start
RUN_DIR="${REKEY_RUN_DIR:-$REKEY_HOME/.rekey}/hbase"
CP="$JAR:$(cat spark-jobs/target/launch.classpath):$RUN_DIR/client"
if [[ -z "${SKIP_LOAD:-}" ]]; then
  java -cp "$CP" bench/reconcile/LoadLegacy.java "$ROWS" 1000 2>"$OUT/load.log" | grep readings
  java -cp "$CP" bench/reconcile/CopyRekeyed.java telemetry_v1 "$V1" bench_telemetry_v2 "$V2" 16 \
    2>"$OUT/copy.log" | grep copied
  java -cp "$CP" bench/reconcile/CopyRekeyed.java bench_telemetry_v2 "$V2" bench_telemetry_v2b "$V2" 16 \
    2>"$OUT/copy-v2b.log" | grep copied
fi

secs() { date +%s.%N; }
damage() { # OLD OLD_LAYOUT NEW NEW_LAYOUT
  java -cp "$CP" bench/repair/Damage.java damage "$1" "$2" "$3" "$4" "$DAY" "$HALF_HOUR" "$BUCKETS" \
    "$((ROWS / 300))" "$((ROWS / 6000))" "$((ROWS / 6000))" 2>>"$OUT/damage.log"
}
tool() { java -cp "$CP" bench/repair/Damage.java "$@" 2>>"$OUT/damage.log"; }
# exit 0 required: every repaired bucket matches afterwards (the repair's own re-check)
repair() { # NAME OLD OLD_LAYOUT NEW [options]: without --from-reconcile, every bucket of the day compared first
  rm -rf "$OUT/$1"
  local what=("${RANGE[@]}")
  [[ " ${*:5} " == *" --from-reconcile "* ]] && what=()
  bin/rekey repair --master 'local[2]' --old-table "$2" --via-snapshot --old-layout "$3" --new-table "$4" \
    --new-layout "$V2" "${what[@]}" --compact-if-masked --out "$OUT/$1" "${@:5}" > "$OUT/$1.log" 2>&1 ||
    { echo "repair $1 failed:"; tail -30 "$OUT/$1.log"; exit 1; }
  cp "$OUT/$1.log" "$OUT/round-${r:-0}-$1.log" # each round's phases kept (the time: line), to explain a slow round
}
equal() { # OLD OLD_LAYOUT NEW: rekey reconcile --digest must match every bucket (untimed)
  bin/rekey reconcile --master 'local[2]' --old-table "$1" --old-layout "$2" --new-table "$3" --new-layout "$V2" \
    --via-snapshot "${RANGE[@]}" --digest --out "$OUT/check" > "$OUT/check.log" 2>&1 ||
    { echo "$3 does not equal $1 after the repair:"; tail -20 "$OUT/check.log"; exit 1; }
}
found() { # OLD OLD_LAYOUT NEW: the reconcile that names the damaged buckets (untimed; exit 3 expected)
  rm -rf "$OUT/found"
  bin/rekey reconcile --master 'local[2]' --old-table "$1" --old-layout "$2" --new-table "$3" --new-layout "$V2" \
    --via-snapshot "${RANGE[@]}" --digest --out "$OUT/found" > "$OUT/found.log" 2>&1 && true
  [[ -f "$OUT/found/reconcile.json" ]] || { echo "reconcile found nothing:"; tail -20 "$OUT/found.log"; exit 1; }
}
backfill() {
  tool drop bench_repair_fresh
  bin/rekey create-table --table bench_repair_fresh --layout "$V2" --splits salt --family d > "$OUT/create.log" 2>&1
  bin/rekey backfill --master 'local[2]' --source-snapshot telemetry_v1_snap --source-layout "$V1" \
    --target-table bench_repair_fresh --target-layout "$V2" > "$OUT/backfill.log" 2>&1 ||
    { echo "backfill failed:"; tail -30 "$OUT/backfill.log"; exit 1; }
}
MR_JAVA=(java -XX:+IgnoreUnrecognizedVMOptions -Dlog4j2.level=INFO --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -cp "$CP")
hashtable_synctable() {
  rm -rf "$OUT/hashtable"
  "${MR_JAVA[@]}" org.apache.hadoop.hbase.mapreduce.HashTable -Dmapreduce.local.map.tasks.maximum=2 \
    --batchsize=32000 --numhashfiles=16 bench_telemetry_v2 "file://$OUT/hashtable" > "$OUT/hashtable.log" 2>&1
  "${MR_JAVA[@]}" org.apache.hadoop.hbase.mapreduce.SyncTable -Dmapreduce.local.map.tasks.maximum=2 \
    --dryrun=false "file://$OUT/hashtable" bench_telemetry_v2 bench_telemetry_v2b > "$OUT/synctable.log" 2>&1
}
rec() { # ROUND VARIANT BASELINE REKEY_S BASELINE_S TARGET
  python3 bench/record.py repair "$1" "$2" "$3" "$ROWS" "$4" "$5" "$(echo "$5 / $4" | bc -l)" "$6"
}

against_backfill() { # ROUND SHORT_NAME RECORDED_VARIANT SECONDS: a row and a record against this round's backfill ($b)
  printf "%-6s %-16s %9.1f %-44s %11.1f %7.2fx\n" "$1" "$2" "$4" "full backfill into a fresh table" "$b" \
    "$(echo "$b / $4" | bc -l)"
  rec "$1" "$3" "rekey backfill of the same snapshot into a fresh table" "$4" "$b" 10
}

# the Spark-free floor, compiled once (untimed); it maps rekey's class-data archive as bin/rekey's JVMs do
mkdir -p "$OUT/floor-classes"
javac -nowarn -d "$OUT/floor-classes" -cp "$CP:spark-jobs/target/test-classes" bench/repair/ReadFloor.java \
  2>"$OUT/floor-javac.log"
read_floor() {
  local archive cds=()
  archive=$(ls "${REKEY_CDS_DIR:-$REKEY_HOME/.rekey/cds}"/rekey-*.jsa 2>/dev/null | head -1 || true)
  [[ -z "$archive" ]] || cds=(-XX:SharedArchiveFile="$archive" -Xlog:cds=off)
  java "${cds[@]}" \
    -cp "$JAR:$(cat spark-jobs/target/launch.classpath):$OUT/floor-classes:spark-jobs/target/test-classes:$RUN_DIR/client" \
    ReadFloor telemetry_v1 bench_telemetry_v2 "$DAY" "$HALF_HOUR" "$BUCKETS" 16 "$(($(nproc) * 2))" \
    >"$OUT/floor-read.log" 2>&1 ||
    { echo "read floor failed:"; tail -20 "$OUT/floor-read.log"; exit 1; }
}

printf "%-6s %-16s %9s %-44s %11s %8s\n" round variant rekey_s baseline baseline_s ratio
# untimed: the first command after a build writes bin/rekey's class-data archive and warms the page cache
damage telemetry_v1 "$V1" bench_telemetry_v2 "$V2" >/dev/null
repair warm telemetry_v1 "$V1" bench_telemetry_v2
for r in $(seq 1 "$ROUNDS"); do
  t0=$(secs); backfill; t1=$(secs); b=$(echo "$t1 - $t0" | bc)
  for v in repair repair-from-reconcile repair-hfiles; do
    damage telemetry_v1 "$V1" bench_telemetry_v2 "$V2" >/dev/null
    extra=()
    if [[ "$v" != repair ]]; then
      found telemetry_v1 "$V1" bench_telemetry_v2
      extra=(--from-reconcile "$OUT/found/reconcile.json")
    fi
    [[ "$v" == repair-hfiles ]] && extra+=(--max-put-cells 0)
    t0=$(secs); repair "$v" telemetry_v1 "$V1" bench_telemetry_v2 "${extra[@]}"; t1=$(secs)
    w=$(echo "$t1 - $t0" | bc)
    equal telemetry_v1 "$V1" bench_telemetry_v2
    against_backfill "$r" "$v" "$v" "$w"
  done
  # the same damage in a family with NEW_VERSION_BEHAVIOR (create-table's new_version_behavior=true): the markers
  # hide only what was written before them, so the repair compacts nothing (--compact-if-masked finds nothing to do)
  tool new-version-behavior bench_telemetry_v2 true
  damage telemetry_v1 "$V1" bench_telemetry_v2 "$V2" >/dev/null
  found telemetry_v1 "$V1" bench_telemetry_v2
  t0=$(secs); repair repair-nvb telemetry_v1 "$V1" bench_telemetry_v2 --from-reconcile "$OUT/found/reconcile.json"
  t1=$(secs)
  w=$(echo "$t1 - $t0" | bc)
  equal telemetry_v1 "$V1" bench_telemetry_v2
  grep -q "keeps NEW_VERSION_BEHAVIOR" "$OUT/repair-nvb.log" || { echo "repair-nvb saw no NEW_VERSION_BEHAVIOR"; exit 1; }
  ! grep -q "major-compacted first" "$OUT/repair-nvb.log" || { echo "repair-nvb compacted"; exit 1; }
  against_backfill "$r" repair-nvb repair-from-reconcile-new-version-behavior "$w"
  # untimed: the markers compacted away before the setting goes back (else they would hide the repaired cells again)
  tool compact bench_telemetry_v2
  tool new-version-behavior bench_telemetry_v2 false
  equal telemetry_v1 "$V1" bench_telemetry_v2
  # the floor under any repair of this damage: its row Deletes left markers in every salt region, and a repaired cell
  # stays hidden until a major compaction removes them (--compact-if-masked waits for it); timed alone here, then
  # the same damage repaired with no marker left (the repair's own work apart from the compaction)
  damage telemetry_v1 "$V1" bench_telemetry_v2 "$V2" >/dev/null
  t0=$(secs); tool compact bench_telemetry_v2; t1=$(secs)
  w=$(echo "$t1 - $t0" | bc)
  against_backfill "$r" floor-compaction floor-compaction-of-the-masked-regions "$w"
  found telemetry_v1 "$V1" bench_telemetry_v2
  t0=$(secs); repair repair-no-markers telemetry_v1 "$V1" bench_telemetry_v2 --from-reconcile "$OUT/found/reconcile.json"
  t1=$(secs)
  w=$(echo "$t1 - $t0" | bc)
  equal telemetry_v1 "$V1" bench_telemetry_v2
  against_backfill "$r" repair-no-markers repair-from-reconcile-markers-compacted "$w"
  # the floors, on the table equal again (untouched by either): the same command with nothing to repair (JVM,
  # Spark, the old side's snapshot and the pass that finds no bucket differing: what `repair` costs at least), and
  # the dry run of the 3 buckets the reconcile named (JVM, Spark, snapshot and one cell-by-cell compare of those
  # buckets, nothing written, no re-check: the least reading any repair of them must do)
  t0=$(secs); repair floor-nothing telemetry_v1 "$V1" bench_telemetry_v2; t1=$(secs)
  w=$(echo "$t1 - $t0" | bc)
  against_backfill "$r" floor-nothing floor-nothing-to-repair "$w"
  # and the least any repair command costs here: JVM, Spark session, the old side's snapshot taken and deleted,
  # given a reconcile.json that names no bucket differing (the untimed check's, above): nothing read or compared
  t0=$(secs); repair floor-fixed telemetry_v1 "$V1" bench_telemetry_v2 --from-reconcile "$OUT/check/reconcile.json"
  t1=$(secs)
  w=$(echo "$t1 - $t0" | bc)
  against_backfill "$r" floor-fixed floor-fixed-cost "$w"
  t0=$(secs); repair floor-compare telemetry_v1 "$V1" bench_telemetry_v2 --from-reconcile "$OUT/found/reconcile.json" \
    --dry-run "$OUT/floor-compare.jsonl"; t1=$(secs)
  w=$(echo "$t1 - $t0" | bc)
  against_backfill "$r" floor-compare floor-compare-3-buckets "$w"
  # any design's least: start, snapshot, both sides of the 3 buckets read once, no Spark, nothing compared or written
  t0=$(secs); read_floor; t1=$(secs)
  w=$(echo "$t1 - $t0" | bc)
  against_backfill "$r" floor-read floor-read-without-spark "$w"
  # the same-key pair, damaged the same way, markers compacted away before either tool runs
  damage bench_telemetry_v2 "$V2" bench_telemetry_v2b "$V2" >/dev/null
  tool compact bench_telemetry_v2b
  t0=$(secs); repair same-key bench_telemetry_v2 "$V2" bench_telemetry_v2b; t1=$(secs) # every bucket compared first
  w=$(echo "$t1 - $t0" | bc)
  equal bench_telemetry_v2 "$V2" bench_telemetry_v2b
  damage bench_telemetry_v2 "$V2" bench_telemetry_v2b "$V2" >/dev/null
  tool compact bench_telemetry_v2b
  t0=$(secs); hashtable_synctable; t1=$(secs)
  h=$(echo "$t1 - $t0" | bc)
  equal bench_telemetry_v2 "$V2" bench_telemetry_v2b
  printf "%-6s %-16s %9.1f %-44s %11.1f %7.2fx\n" "$r" same-key "$w" "HashTable + SyncTable (real repair)" "$h" \
    "$(echo "$h / $w" | bc -l)"
  rec "$r" same-key "HBase HashTable + SyncTable --dryrun=false (same-key pair)" "$w" "$h" 2
done
echo "repair: --old-table with --via-snapshot, --from/--to over the day's 48 half-hour buckets (every bucket compared"
echo "first, as a reconcile does), --compact-if-masked; repair-from-reconcile: given the reconcile.json that found the"
echo "damage (that reconcile untimed: the workflow runs it before repair), the 3 buckets compared cell by cell, written"
echo "and compared again; repair-hfiles: the same with --max-put-cells 0 (the backfill's HFile path)."
echo "Both sides of every ratio end equal: rekey reconcile --digest over the day matches (untimed)."
echo "floor-nothing-to-repair: the repair command on the equal table (finds no bucket differing); floor-compare-3-buckets:"
echo "--from-reconcile with --dry-run on the equal table (one compare of the 3 buckets, nothing written);"
echo "floor-fixed-cost: --from-reconcile naming no bucket (JVM, Spark, the old side's snapshot: this command's least)."
echo "floor-read-without-spark: any design's least (bench/repair/ReadFloor.java): a JVM with the HBase client, the old"
echo "side's snapshot taken and deleted, both sides of the 3 buckets read once (the snapshot with TableSnapshotScanner,"
echo "the new table through its region server), no Spark, nothing compared, written or re-checked."
echo "floor-compaction-of-the-masked-regions: the damage's row Deletes compacted away alone (flush + major compaction"
echo "of bench_telemetry_v2, waited for): a repair of rows deleted in every salt region needs it before its Puts can be"
echo "seen; repair-from-reconcile-markers-compacted: the same damage repaired after that compaction (no marker left)."
echo "repair-from-reconcile-new-version-behavior: the same damage and command with NEW_VERSION_BEHAVIOR set on"
echo "bench_telemetry_v2's family for it: a delete marker hides only older writes, so no compaction is needed."
echo "A repair at 1/10 of the backfill must also be at least floor-fixed-cost: the ratio backfill / floor-fixed-cost is"
echo "the best any repair command can reach on this table and machine."
echo "Each repair's phases (repair.json, the time: line), per round: grep '^time:' target/bench/repair/round-*.log"

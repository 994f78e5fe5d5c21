#!/usr/bin/env bash
# Benchmark: rekey reconcile (counts, and --digest) across a key change vs HBase's HashTable, in one run.
# HashTable cannot compare across layouts (it assumes both tables share row keys), so it runs on the new table alone:
# the cost of hashing one side, which is the least a same-key SyncTable reconciliation would pay.
#
#   bench/reconcile/run.sh [ROWS] [ROUNDS]      (default 1000000 rows, 2 rounds)
#
# Data: `bin/rekey demo --rows ROWS` writes telemetry_v1 (ts | deviceId, 1 region); CopyRekeyed.java copies it with
# Puts into bench_telemetry_v2 (salt | ts | deviceId, 16 regions). Same cores for both tools: Spark local[2] and
# MapReduce's LocalJobRunner with 2 map slots. Times are wall clock per command, JVM start included (both pay it);
# rekey's own in-job seconds are printed too. Results go to docs/benchmarks.md by hand, with this command.
set -euo pipefail
REKEY_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$REKEY_HOME"
ROWS="${1:-1000000}"
ROUNDS="${2:-2}"
OUT="$REKEY_HOME/target/bench/reconcile"
mkdir -p "$OUT"
JAR="spark-jobs/target/rekey-spark-jobs-0.1.0-SNAPSHOT-spark.jar"

bin/rekey hbase start
bin/rekey demo --rows "$ROWS" --devices 1000 --master 'local[2]' | grep -E "readings from|snapshot" || true
RUN_DIR="${REKEY_RUN_DIR:-$REKEY_HOME/.rekey}/hbase"
CP="$JAR:$(cat spark-jobs/target/launch.classpath):$RUN_DIR/client"
java -cp "$CP" bench/reconcile/CopyRekeyed.java telemetry_v1 conf/layouts/telemetry-v1.yaml \
  bench_telemetry_v2 conf/layouts/telemetry-v2.yaml 16 2>/dev/null | grep copied

secs() { date +%s.%N; }
reconcile() {
  bin/rekey reconcile --master 'local[2]' --old-table telemetry_v1 --old-layout conf/layouts/telemetry-v1.yaml \
    --new-table bench_telemetry_v2 --new-layout conf/layouts/telemetry-v2.yaml --bucket 1h \
    --from 2026-11-29 --to 2026-11-30 --out "$OUT/$1" "${@:2}" > "$OUT/$1.log" 2>&1
  grep -E "^MATCH" "$OUT/$1.log" >/dev/null || { echo "reconcile $1 did not match:"; tail -20 "$OUT/$1.log"; exit 1; }
}
hashtable() {
  rm -rf "$OUT/hashtable"
  java -XX:+IgnoreUnrecognizedVMOptions --add-opens=java.base/java.lang=ALL-UNNAMED \
    --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED -cp "$CP" \
    org.apache.hadoop.hbase.mapreduce.HashTable -Dmapreduce.local.map.tasks.maximum=2 \
    --batchsize=32000 --numhashfiles=16 bench_telemetry_v2 "file://$OUT/hashtable" > "$OUT/hashtable.log" 2>&1
}

printf "%-6s %14s %14s %14s %12s %12s\n" round counts_s digest_s hashtable_s ht/counts ht/digest
for r in $(seq 1 "$ROUNDS"); do
  t0=$(secs); reconcile counts;           t1=$(secs)
  reconcile digest --digest;              t2=$(secs)
  hashtable;                              t3=$(secs)
  c=$(echo "$t1 - $t0" | bc); d=$(echo "$t2 - $t1" | bc); h=$(echo "$t3 - $t2" | bc)
  jc=$(python3 -c "import json;print(round(json.load(open('$OUT/counts/reconcile.json'))['seconds'],1))")
  jd=$(python3 -c "import json;print(round(json.load(open('$OUT/digest/reconcile.json'))['seconds'],1))")
  printf "%-6s %8.1f (%4s) %8.1f (%4s) %14.1f %11.2fx %11.2fx\n" "$r" "$c" "$jc" "$d" "$jd" "$h" \
    "$(echo "$h / $c" | bc -l)" "$(echo "$h / $d" | bc -l)"
done
echo "(in parentheses: rekey's in-job seconds, without JVM and Spark start)"

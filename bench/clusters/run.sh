#!/usr/bin/env bash
# Benchmark: a migration to a new cluster, in one run.
#  1. backfill reading the old cluster's snapshot files in place (--old-hbase-site) vs HBase's ExportSnapshot of
#     the same snapshot to the new cluster followed by a local backfill from the copy: target >= 1.3x faster; and
#     against its floor, that local backfill alone (the snapshot already on the new cluster: no copy at all). The
#     in-place route saves the copy and nothing else, so its ratio is 1 + copy / backfill at best;
#  2. reconcile --digest with the old side on the old cluster (--old-hbase-site) vs the same reconcile with both sides
#     on the new cluster (the exported copy of the snapshot): target within 1.3x (ratio one-cluster / cross >= 0.77).
# Old cluster: the embedded HBase (bin/rekey hbase start; root dir on the local disk). New cluster: the
# pseudo-distributed one (bin/rekey cluster start; HBase on HDFS, two RegionServers). Both on this machine, so "the
# network" is the loopback: the figures compare the work each route does (reads, copies, writes), not a WAN link.
#
#   bench/clusters/run.sh [ROWS] [ROUNDS]      (default 1000000 rows, 2 rounds; SKIP_LOAD=1 reuses telemetry_v1)
#
# Same cores for both routes: Spark local[2] and ExportSnapshot's MapReduce LocalJobRunner with 2 mappers. Times are
# wall clock per command, JVM start included (both pay it). Results go to target/bench/results.jsonl
# (bench/record.py); bench/collect.py puts them into docs/benchmarks.json and docs/benchmarks.md.
set -euo pipefail
REKEY_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$(dirname "$0")/../lib/run-record.sh"
bench_run_start "$0" "$@"
cd "$REKEY_HOME"
ROWS="${1:-1000000}"
ROUNDS="${2:-2}"
OUT="$REKEY_HOME/target/bench/clusters"
mkdir -p "$OUT"
JAR="spark-jobs/target/rekey-spark-jobs-0.1.0-SNAPSHOT-spark.jar"
RUN="${REKEY_RUN_DIR:-$REKEY_HOME/.rekey}"

bin/rekey hbase start
bin/rekey cluster start >/dev/null
OLD="$RUN/hbase/client/hbase-site.xml"
NEW="$RUN/cluster/client/hbase-site.xml"
prop() { python3 -c "import re,sys;print(re.search(r'<name>$2</name><value>([^<]*)</value>',open('$1').read()).group(1))"; }
OLD_ROOT="$(prop "$OLD" hbase.rootdir)"
NEW_ROOT="$(prop "$NEW" hbase.rootdir)"
NEW_FS="$(prop "$NEW" fs.defaultFS)"
CP="$JAR:$(cat spark-jobs/target/launch.classpath):$RUN/hbase/client"
if [[ -z "${SKIP_LOAD:-}" ]]; then
  java -cp "$CP" bench/reconcile/LoadLegacy.java "$ROWS" 1000 2>"$OUT/load.log" | grep readings
fi
V1=conf/layouts/telemetry-v1.yaml
V2=conf/layouts/telemetry-v2.yaml
MR_JAVA=(java -XX:+IgnoreUnrecognizedVMOptions -Dlog4j2.level=INFO --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  -cp "$JAR:$(cat spark-jobs/target/launch.classpath):$RUN/cluster/client")
secs() { date +%s.%N; }

target() { # a fresh 16-region target on the new cluster (untimed)
  bin/rekey create-table --hbase-site "$NEW" --table "$1" --layout telemetry-v2 --splits salt --family d \
    > "$OUT/create-$1.log" 2>&1 || { cat "$OUT/create-$1.log"; exit 1; }
}
backfill() { # NAME TABLE [extra args]: the backfill into TABLE on the new cluster
  bin/rekey backfill --master 'local[2]' --hbase-site "$NEW" --source-snapshot telemetry_v1_snap \
    --source-layout "$V1" --target-table "$2" --target-layout "$V2" --staging "$NEW_FS/bench-staging/$2" \
    "${@:3}" > "$OUT/$1.log" 2>&1 || { echo "backfill $1 failed:"; tail -20 "$OUT/$1.log"; exit 1; }
  grep -q "verified=true\|VERIFIED" "$OUT/$1.log" || { echo "backfill $1 not verified"; tail -20 "$OUT/$1.log"; exit 1; }
}
# the snapshot's files copied from the old cluster's root to the new one's (2 mappers); -no-checksum-verify: the local
# filesystem's and HDFS's checksums differ in kind, and ExportSnapshot refuses the copy otherwise
export_snapshot() {
  "${MR_JAVA[@]}" org.apache.hadoop.hbase.snapshot.ExportSnapshot -Dmapreduce.local.map.tasks.maximum=2 \
    -snapshot telemetry_v1_snap -copy-from "$OLD_ROOT" -copy-to "$NEW_ROOT" -mappers 2 -overwrite -no-checksum-verify \
    > "$OUT/export.log" 2>&1 || { echo "ExportSnapshot failed:"; tail -20 "$OUT/export.log"; exit 1; }
}
reset_new() { # the exported copy and the targets removed from the new cluster (untimed): each round starts over
  "${MR_JAVA[@]}" bench/clusters/Reset.java telemetry_v1_snap "$@" > "$OUT/reset.log" 2>&1 ||
    { cat "$OUT/reset.log"; exit 1; }
}
reconcile() { # NAME [site args]: reconcile --digest of the snapshot against the in-place target
  bin/rekey reconcile --master 'local[2]' --hbase-site "$NEW" "${@:2}" --old-snapshot telemetry_v1_snap \
    --old-layout "$V1" --new-table "$TABLE_IN" --new-layout "$V2" --bucket 1h --from 2026-11-29 --to 2026-11-30 \
    --digest --out "$OUT/$1" > "$OUT/$1.log" 2>&1
  grep -qE "^MATCH" "$OUT/$1.log" || { echo "reconcile $1 did not match:"; tail -20 "$OUT/$1.log"; exit 1; }
}

printf "%-6s %12s %12s %12s %12s %9s %14s %14s %9s\n" round in_place_s export_s local_bf_s export+bf_s ratio \
  reconcile_x_s reconcile_1_s ratio
for r in $(seq 1 "$ROUNDS"); do
  TABLE_IN="bench_x_inplace"; TABLE_EX="bench_x_export"
  reset_new "$TABLE_IN" "$TABLE_EX"; target "$TABLE_IN"; target "$TABLE_EX"
  t0=$(secs); backfill "inplace-$r" "$TABLE_IN" --old-hbase-site "$OLD"; t1=$(secs)
  inplace=$(echo "$t1 - $t0" | bc)
  t0=$(secs); export_snapshot; t1=$(secs); backfill "export-$r" "$TABLE_EX"; t2=$(secs)
  ex=$(echo "$t1 - $t0" | bc); bf=$(echo "$t2 - $t1" | bc); exbf=$(echo "$t2 - $t0" | bc)
  ratio=$(echo "$exbf / $inplace" | bc -l)
  t0=$(secs); reconcile "reconcile-x-$r" --old-hbase-site "$OLD"; t1=$(secs)
  t2=$(secs); reconcile "reconcile-1-$r"; t3=$(secs)
  rx=$(echo "$t1 - $t0" | bc); r1=$(echo "$t3 - $t2" | bc); rratio=$(echo "$r1 / $rx" | bc -l)
  printf "%-6s %12.1f %12.1f %12.1f %12.1f %8.2fx %14.1f %14.1f %8.2fx\n" "$r" "$inplace" "$ex" "$bf" "$exbf" \
    "$ratio" "$rx" "$r1" "$rratio"
  python3 bench/record.py clusters "$r" "backfill from the other cluster's snapshot in place" \
    "ExportSnapshot to the new cluster + local backfill" "$((ROWS * 2))" "$inplace" "$exbf" "$ratio" 1.3
  # the floor of the in-place route: the same backfill with the snapshot already on the new cluster (no copy at all)
  python3 bench/record.py clusters "$r" "backfill from the other cluster's snapshot in place (vs its floor)" \
    "floor: the local backfill alone, the snapshot already on the new cluster" "$((ROWS * 2))" "$inplace" "$bf" \
    "$(echo "$bf / $inplace" | bc -l)" ""
  python3 bench/record.py clusters "$r" "reconcile --digest across two clusters" \
    "the same reconcile with both sides on one cluster" "$((ROWS * 2))" "$rx" "$r1" "$rratio" 0.77
done
echo "in place: bin/rekey backfill --old-hbase-site (old cluster's snapshot files read by the tasks); export:"
echo "ExportSnapshot (LocalJobRunner, 2 mappers) to the new cluster's root, then the same backfill from the copy."
echo "reconcile_x: old side = the snapshot on the old cluster; reconcile_1: old side = the exported copy on the new."

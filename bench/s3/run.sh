#!/usr/bin/env bash
# Benchmark: S3 as the backfill's staging dir (docs/s3.md), in one run, on the single-host pseudo-distributed cluster
# (bin/rekey cluster start: HBase on HDFS) and the local S3 endpoint (bin/rekey s3 start: S3Proxy).
#  1. the same snapshot backfilled with --staging s3a://rekey/... vs --staging hdfs://... (fresh 16-region targets,
#     alternating): target S3 at most 1.5x the HDFS time (ratio hdfs/s3 >= 0.67);
#  2. the load step alone (--no-load, then a timed --resume that loads and verifies) of ~200 and ~2,000 HFiles staged
#     on S3 vs the same on HDFS (time tiers cut each region's cells into 12 or 131 files: 192 or 2,096 HFiles), and
#     the growth from 200 to 2,000 files: the time per file should not grow (target ratio per-file(200)/per-file(2000)
#     >= 1). The loader's per-region-per-family file cap is raised for it (hbase.mapreduce.bulkload.max.hfiles...).
# Both endpoints are on this machine: "S3" is S3Proxy over the local disk through the loopback, so the figures compare
# the work each route does (requests, copies: S3 has no rename and the RegionServers copy each file from it), not a
# WAN link to AWS.
#
#   bench/s3/run.sh [ROWS] [ROUNDS]      (default 1000000 rows, 2 rounds; SKIP_LOAD=1 reuses telemetry_v1)
#
# Same cores for both: Spark local[2]. Times are wall clock per command, JVM start included (both pay it). Results go
# to target/bench/results.jsonl (bench/record.py); bench/collect.py puts them into docs/benchmarks.*.
set -euo pipefail
REKEY_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$(dirname "$0")/../lib/run-record.sh"
bench_run_start "$0" "$@"
cd "$REKEY_HOME"
ROWS="${1:-1000000}"
ROUNDS="${2:-2}"
OUT="$REKEY_HOME/target/bench/s3"
mkdir -p "$OUT"
JAR="spark-jobs/target/rekey-spark-jobs-0.1.0-SNAPSHOT-spark.jar"
RUN="${REKEY_RUN_DIR:-$REKEY_HOME/.rekey}"

bin/rekey cluster start >/dev/null
bin/rekey s3 start >/dev/null
SITE="$RUN/cluster/client/hbase-site.xml"
prop() { python3 -c "import re,sys;print(re.search(r'<name>$2</name><value>([^<]*)</value>',open('$1').read()).group(1))"; }
FS="$(prop "$SITE" fs.defaultFS)"
# the endpoint's settings and the credential file that holds its keys, as a user's core-site names them: no key on a
# command line
S3_CONF=()
while IFS= read -r line; do
  S3_CONF+=(--conf "spark.hadoop.$line")
done < <(python3 - "$RUN/s3/client/core-site.xml" <<'PY'
import re, sys
for k, v in re.findall(r'<name>([^<]*)</name><value>([^<]*)</value>', open(sys.argv[1]).read()):
    print(f"{k}={v}")
PY
)
CP="$JAR:$(cat spark-jobs/target/launch.classpath):$RUN/cluster/client"
if [[ -z "${SKIP_LOAD:-}" ]]; then
  java -cp "$CP" bench/reconcile/LoadLegacy.java "$ROWS" 1000 2>"$OUT/load.log" | grep readings
fi
V1=conf/layouts/telemetry-v1.yaml
V2=conf/layouts/telemetry-v2.yaml
CAP=(--conf spark.hadoop.hbase.mapreduce.bulkload.max.hfiles.perRegion.perFamily=256)
secs() { date +%s.%N; }
target() { # a fresh 16-region target (untimed; one per round and variant)
  bin/rekey create-table --hbase-site "$SITE" --table "$1" --layout telemetry-v2 --splits salt --family d \
    > "$OUT/create-$1.log" 2>&1 || { cat "$OUT/create-$1.log"; exit 1; }
}
backfill() { # LOG TABLE STAGING [extra args]
  bin/rekey backfill --master 'local[2]' --hbase-site "$SITE" "${S3_CONF[@]}" "${CAP[@]}" \
    --source-snapshot telemetry_v1_snap --source-layout "$V1" --target-table "$2" --target-layout "$V2" \
    --staging "$3" "${@:4}" > "$OUT/$1.log" 2>&1 || { echo "backfill $1 failed:"; tail -20 "$OUT/$1.log"; exit 1; }
}
timed() { local t0; t0=$(secs); "$@"; python3 -c "print(f'{$(secs) - $t0:.2f}')"; }

printf "%-6s %10s %10s %8s | %8s %8s %8s %8s %10s %10s\n" round hdfs_s s3_s ratio \
  load200h load200s load2kh load2ks s3_vs_hdfs growth
for r in $(seq 0 "$ROUNDS"); do
  warm=""; [[ "$r" == 0 ]] && warm="warm-up"
  target "bench_s3_h$r"; target "bench_s3_s$r"
  H=$(timed backfill "hdfs-$r" "bench_s3_h$r" "$FS/bench-s3/h$r")
  S=$(timed backfill "s3-$r" "bench_s3_s$r" "s3a://rekey/bench-s3/s$r")
  RATIO=$(python3 -c "print(f'{$H / $S:.3f}')")
  # the load alone, ~200 and ~2,000 HFiles: written with --no-load (untimed), then loaded and verified (timed)
  declare -A LOAD
  for n in 200 2000; do
    tiers=PT2H; [[ "$n" == 2000 ]] && tiers=PT11M
    for side in h s; do
      staging="$FS/bench-s3/load-$n$r"; [[ "$side" == s ]] && staging="s3a://rekey/bench-s3/load-$n$r"
      target "bench_s3_l$n$side$r"
      backfill "write-$n$side-$r" "bench_s3_l$n$side$r" "$staging" --time-tiers "$tiers" --no-load
      LOAD[$n$side]=$(timed backfill "load-$n$side-$r" "bench_s3_l$n$side$r" "$staging" --time-tiers "$tiers" --resume)
    done
  done
  FILES200=$(grep -oE "[0-9,]+ HFiles" "$OUT/load-200s-$r.log" | head -1 | tr -dc 0-9)
  FILES2K=$(grep -oE "[0-9,]+ HFiles" "$OUT/load-2000s-$r.log" | head -1 | tr -dc 0-9)
  S3_VS=$(python3 -c "print(f'{${LOAD[2000h]} / ${LOAD[2000s]}:.3f}')")
  GROWTH=$(python3 -c "print(f'{(${LOAD[200s]} / ${FILES200:-192}) / (${LOAD[2000s]} / ${FILES2K:-2096}):.3f}')")
  printf "%-6s %10s %10s %8s | %8s %8s %8s %8s %10s %10s\n" "$r" "$H" "$S" "$RATIO" \
    "${LOAD[200h]}" "${LOAD[200s]}" "${LOAD[2000h]}" "${LOAD[2000s]}" "$S3_VS" "$GROWTH"
  python3 bench/record.py s3-staging "$r" "s3a staging" "hdfs staging" "$ROWS" "$S" "$H" "$RATIO" 0.67 $warm
  python3 bench/record.py s3-load-2000 "$r" "load from s3a (${FILES2K:-2096} HFiles)" "load from hdfs" "$ROWS" \
    "${LOAD[2000s]}" "${LOAD[2000h]}" "$S3_VS" "" $warm
  python3 bench/record.py s3-load-growth "$r" "s3a per file, ${FILES2K:-2096} HFiles" "s3a per file, ${FILES200:-192} HFiles" \
    "$ROWS" "${LOAD[2000s]}" "${LOAD[200s]}" "$GROWTH" 1.0 $warm
done

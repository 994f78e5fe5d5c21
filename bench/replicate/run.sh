#!/usr/bin/env bash
# Benchmark: rekey replication (the old table's writers unchanged, a rekeying peer carries their edits) against its
# baselines, in one run, alternating which side goes first per round:
#  1. the application's write throughput through one BufferedMutator (WAL on, the demo's telemetry rows) on the old
#     table with the peer on vs the same writes with no peer: target >= 0.7x;
#  2. the edits replicated per second (rows / time from the first write until the last row is in the new table);
#  3. how soon the new table is current once the writes stop: every written row in the new table within 10 s of the
#     last write (an upper bound on "lag back under 5 s"): recorded as 10 s / catch-up time, target >= 1;
#  4. against the client's DualWriter writing the same rows to both tables: the application's write throughput with
#     replication instead (dual seconds / replication seconds: above 1, the application writes faster), the price
#     being the new table's freshness (3.).
#
#   bench/replicate/run.sh [ROWS] [ROUNDS]      (default 200000 rows, 4 rounds after a warm-up round)
#
# On the embedded HBase (started if needed, left running): the endpoint runs inside its RegionServer, so it shares
# the server's cores with the writes it replicates, as on a real RegionServer. Results go to
# target/bench/results.jsonl (bench/record.py); bench/collect.py puts them into docs/benchmarks.json and .md.
set -euo pipefail
REKEY_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$(dirname "$0")/../lib/run-record.sh"
bench_run_start "$0" "$@"
cd "$REKEY_HOME"
ROWS="${1:-200000}"
ROUNDS="${2:-4}"
mkdir -p target/bench/replicate
bin/rekey hbase start >/dev/null
RUN_DIR="${REKEY_RUN_DIR:-$REKEY_HOME/.rekey}/hbase"
JAR="spark-jobs/target/rekey-spark-jobs-0.1.0-SNAPSHOT-spark.jar"
CP="$JAR:$(cat spark-jobs/target/launch.classpath):$RUN_DIR/client"
FLAGS=(-XX:+IgnoreUnrecognizedVMOptions -Xmx2g
  --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
  -Dio.netty.tryReflectionSetAccessible=true -Dlog4j2.configurationFile="$REKEY_HOME/conf/log4j2.properties")
java "${FLAGS[@]}" ${BENCH_JVM_ARGS:-} -cp "$CP" bench/replicate/ReplicateBench.java "$ROWS" "$ROUNDS" \
  2>target/bench/replicate/stderr.log

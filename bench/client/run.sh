#!/usr/bin/env bash
# Benchmark: the client module (merged bucket reads, gets, dual writes) against its baselines in the same run.
#
#   bench/client/run.sh [ROWS] [ROUNDS] [WRITE_ROWS]     (default 500000 rows over one day, 3 rounds, 100000 writes)
#
# Data: bench_client_v1 (telemetry-v1, one region) and bench_client_v2 (telemetry-v2, 16 salt regions), written once
# through the DualWriter (flushed, major-compacted) and reused while the first hour has the expected rows. The write
# comparison uses scratch tables, truncated between rounds and dropped at the end. Uses the embedded HBase (started if
# needed; left running). Record results in docs/benchmarks.md with this command.
set -euo pipefail
REKEY_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$REKEY_HOME"
ROWS="${1:-500000}"
ROUNDS="${2:-3}"
WROWS="${3:-100000}"
mkdir -p target/bench/client
bin/rekey hbase start >/dev/null
RUN_DIR="${REKEY_RUN_DIR:-$REKEY_HOME/.rekey}/hbase"
JAR="spark-jobs/target/rekey-spark-jobs-0.1.0-SNAPSHOT-spark.jar"
CP="$JAR:$(cat spark-jobs/target/launch.classpath):$RUN_DIR/client"
FLAGS=(-XX:+IgnoreUnrecognizedVMOptions -Xmx2g
  --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
  -Dio.netty.tryReflectionSetAccessible=true -Dlog4j2.configurationFile="$REKEY_HOME/conf/log4j2.properties")
java "${FLAGS[@]}" ${BENCH_JVM_ARGS:-} -cp "$CP" bench/client/ClientBench.java "$ROWS" "$ROUNDS" "$WROWS" \
  2>target/bench/client/stderr.log

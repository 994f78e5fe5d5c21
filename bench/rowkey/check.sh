#!/usr/bin/env bash
# Benchmark: KeyLayout.check per key, best of 8 passes, for two shipped layouts (bench/rowkey/CheckBench.java).
#   bench/rowkey/check.sh                 (after a build: uses rowkey/target's jar and spark-jobs' launch classpath)
#   ROWKEY_JAR=<other build's jar> bench/rowkey/check.sh      (A/B against another build)
# Record results in docs/benchmarks.md with this command.
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR="${ROWKEY_JAR:-rowkey/target/rekey-rowkey-0.1.0-SNAPSHOT.jar}"
java -Xmx4g -cp "$JAR:$(cat spark-jobs/target/launch.classpath)" bench/rowkey/CheckBench.java

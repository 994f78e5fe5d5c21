# Sourced by bench/scan/*.sh: the client classpath (rekey jar, its launch classpath, the benchmark helpers in
# test-classes, the embedded server's client conf) and the JVM flags Spark needs on Java 17.
RUN_DIR="${REKEY_RUN_DIR:-$REKEY_HOME/.rekey}/hbase"
JAR="${REKEY_JAR:-spark-jobs/target/rekey-spark-jobs-0.1.0-SNAPSHOT-spark.jar}"  # REKEY_JAR: another build, for A/B runs
CP="$JAR:spark-jobs/target/test-classes:$(cat spark-jobs/target/launch.classpath):$RUN_DIR/client"
FLAGS=(-XX:+IgnoreUnrecognizedVMOptions -Xmx3g
  --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/sun.nio.cs=ALL-UNNAMED
  --add-opens=java.base/sun.security.action=ALL-UNNAMED --add-opens=java.base/sun.util.calendar=ALL-UNNAMED
  --add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED -Djdk.reflect.useDirectMethodHandle=false
  -Dio.netty.tryReflectionSetAccessible=true -Dlog4j2.configurationFile="$REKEY_HOME/conf/log4j2.properties")
# the collector bin/rekey gives the CLI's JVM, unless BENCH_JVM_ARGS names one
source "$REKEY_HOME/bin/lib/collector.sh"
GC_OPT="$(rekey_collector "${BENCH_JVM_ARGS:-}")"
[[ -z "$GC_OPT" ]] || FLAGS+=("$GC_OPT")
PAGES_OPT="$(rekey_huge_pages "${BENCH_JVM_ARGS:-}")"
[[ -z "$PAGES_OPT" ]] || FLAGS+=("$PAGES_OPT")

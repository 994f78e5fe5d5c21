# Sourced by bin/rekey and the benchmarks that emulate its JVM. rekey_collector OPTS prints the garbage collector
# flag for the CLI's JVM, or nothing when OPTS (extra JVM flags) already names a collector.
# A throughput collector: a local master's tasks run in that JVM, and on few cores G1's concurrent threads and
# barriers cost a short job more than its pauses would (reconcile of 2M rows on 2 cores: 8.9 s wall with G1, 7.9 s
# parallel, 7.3 s serial; warm read rates equal, docs/benchmarks.md). Serial on <= 2 cores, parallel above.
rekey_collector() {
  case " $1 " in
    *" -XX:+Use"*"GC "*) ;;
    *) if (( $(nproc 2>/dev/null || echo 4) <= 2 )); then echo -XX:+UseSerialGC; else echo -XX:+UseParallelGC; fi ;;
  esac
}

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

# rekey_huge_pages OPTS prints -XX:+UseTransparentHugePages where the kernel offers transparent huge pages to a
# process that asks (enabled = madvise or always), or nothing when OPTS already says. The heap then grows by 2 MB
# pages: a job that caches its rows (scan with reports: ~700 MB at 6M rows) touches fresh heap in every young
# collection, and faulting it in 4 KB pages was a third of those pauses on the 2-core VM (docs/benchmarks.md).
rekey_huge_pages() {
  local thp=/sys/kernel/mm/transparent_hugepage/enabled
  case " $1 " in
    *" -XX:+UseTransparentHugePages "*|*" -XX:-UseTransparentHugePages "*|*" -XX:+UseLargePages "*) ;;
    *) if [[ -r "$thp" ]] && ! grep -q '\[never\]' "$thp"; then echo -XX:+UseTransparentHugePages; fi ;;
  esac
}

package dev.rekey.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * The JVM's own time so far (benchmarks only): JIT compiling (summed over the compiler threads) and
 * collector pauses, to tell a pass's time taken by the JVM from the pass's own on a machine of few
 * cores.
 */
record JvmTime(long compileMs, long gcMs) {
  static JvmTime now() {
    long gc = 0;
    for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
      gc += Math.max(0, b.getCollectionTime());
    }
    var jit = ManagementFactory.getCompilationMXBean();
    // 0 where the JVM does not time its compiler (HotSpot does)
    return new JvmTime(
        jit != null && jit.isCompilationTimeMonitoringSupported()
            ? jit.getTotalCompilationTime()
            : 0,
        gc);
  }

  /** "JIT x ms, GC y ms" since {@code before}. */
  String since(JvmTime before) {
    return String.format("JIT %d ms, GC %d ms", compileMs - before.compileMs, gcMs - before.gcMs);
  }
}

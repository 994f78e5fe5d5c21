package dev.rekey.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * Peak heap of this JVM (driver + local executors + LocalJobRunner all live in it) between reset()
 * and mb().
 */
final class HeapPeak {
  private HeapPeak() {}

  static void reset() {
    System.gc();
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      p.resetPeakUsage();
    }
  }

  /**
   * Sum of the heap pools' peaks: an upper bound of the peak heap in use (pools peak at different
   * moments).
   */
  static long mb() {
    long sum = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        sum += p.getPeakUsage().getUsed();
      }
    }
    return sum >> 20;
  }
}

package dev.rekey.common;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Waits for a condition on a live cluster that has no notification to wait on (a table becoming
 * available, a compaction finishing): checks it at an interval until it holds or the deadline
 * passes. The one place rekey polls.
 */
public final class Poll {
  /** A condition that may need a round trip to the cluster. */
  @FunctionalInterface
  public interface Condition {
    boolean holds() throws IOException;
  }

  private Poll() {}

  /**
   * Returns once {@code condition} holds; throws {@code onTimeout}'s exception when {@code timeout}
   * passes first.
   */
  public static void until(
      Condition condition,
      Duration timeout,
      Duration interval,
      Supplier<? extends RuntimeException> onTimeout)
      throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.holds()) {
      if (System.nanoTime() > deadline) {
        throw onTimeout.get();
      }
      try {
        Thread.sleep(interval.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while waiting");
      }
    }
  }
}

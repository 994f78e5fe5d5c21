package dev.rekey.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Benchmarks' passes over parts (files, splits) on a fixed number of threads, counts summed. */
public final class ParallelCounts {
  /** Counts one part: {rows, cells}. */
  public interface Counter<T> {
    long[] count(T part) throws Exception;
  }

  private ParallelCounts() {}

  /** {rows, cells} over every part, read {@code threads} at a time. */
  public static <T> long[] sum(List<T> parts, int threads, Counter<T> counter) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<long[]>> counts = new ArrayList<>();
      for (T part : parts) {
        counts.add(pool.submit(() -> counter.count(part)));
      }
      long[] total = new long[2];
      for (Future<long[]> f : counts) {
        long[] n = f.get();
        total[0] += n[0];
        total[1] += n[1];
      }
      return total;
    } finally {
      pool.shutdownNow();
    }
  }
}

package dev.rekey.client;

import dev.rekey.rowkey.BucketRange;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;

/**
 * The rows of a {@link ScanPlan} in natural key order: one scan per range, opened in parallel on a
 * bounded pool, merged by a heap on the key without its prefix. Stops after the plan's limit. Any
 * bucket's failure surfaces as a {@link BucketReadException} from {@link #next()} (or from
 * opening), never as an early end. Not thread-safe; close it (or read it to the end).
 */
public final class MergedScan implements Iterator<Result>, AutoCloseable {
  private final PriorityQueue<BucketStream> heads;
  private final List<BucketStream> open;
  private final int limit;
  private int returned;

  private MergedScan(List<BucketStream> streams, Comparator<BucketStream> order, int limit) {
    this.open = streams;
    this.heads = new PriorityQueue<>(Math.max(1, streams.size()), order);
    for (BucketStream s : streams) {
      if (s.head() != null) {
        heads.add(s);
      }
    }
    this.limit = limit;
  }

  static MergedScan open(Connection conn, TableName table, ScanPlan plan, ExecutorService pool) {
    List<Future<BucketStream>> futures = new ArrayList<>(plan.ranges().size());
    for (BucketRange r : plan.ranges()) {
      futures.add(pool.submit(() -> BucketStream.open(conn, table, r, plan)));
    }
    List<BucketStream> streams = new ArrayList<>(futures.size());
    RuntimeException failure = null;
    for (int i = 0; i < futures.size(); i++) {
      try {
        streams.add(futures.get(i).get());
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        RuntimeException f =
            c instanceof BucketReadException b
                ? b
                : new BucketReadException(table, plan.ranges().get(i), c);
        if (failure == null) {
          failure = f;
        } else {
          failure.addSuppressed(f);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        if (failure == null) {
          failure = new BucketReadException(table, plan.ranges().get(i), e);
        }
      }
    }
    if (failure != null) {
      streams.forEach(BucketStream::close);
      throw failure;
    }
    NaturalOrder natural = new NaturalOrder(plan.mergeOffset());
    Comparator<BucketStream> byKey =
        (a, b) -> natural.compare(a.head().getRow(), b.head().getRow());
    if (plan.reverse()) {
      byKey = byKey.reversed();
    }
    // equal natural keys cannot come from two buckets of one table (the salt is a function of the
    // key); the bucket
    // breaks ties anyway, so the order is total and repeatable
    byKey = byKey.thenComparingInt(s -> s.range().bucket());
    return new MergedScan(streams, byKey, plan.limit());
  }

  @Override
  public boolean hasNext() {
    boolean more = !heads.isEmpty() && (limit == 0 || returned < limit);
    if (!more) {
      close();
    }
    return more;
  }

  @Override
  public Result next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    BucketStream s = heads.poll();
    Result r = s.head();
    returned++;
    if (limit == 0 || returned < limit) {
      try {
        s.advance();
      } catch (BucketReadException e) {
        close();
        throw e;
      }
      if (s.head() != null) {
        heads.add(s);
      }
    }
    return r;
  }

  /**
   * Reads every remaining row into a list (a failed bucket throws; nothing partial is returned).
   */
  public List<Result> toList() {
    List<Result> out = new ArrayList<>();
    try (this) {
      while (hasNext()) {
        out.add(next());
      }
    }
    return out;
  }

  @Override
  public void close() {
    for (BucketStream s : open) {
      s.close();
    }
    open.clear();
    heads.clear();
  }
}

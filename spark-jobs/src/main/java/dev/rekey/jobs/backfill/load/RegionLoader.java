package dev.rekey.jobs.backfill.load;

import dev.rekey.jobs.backfill.staging.Staging;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.tool.BulkLoadHFilesTool;
import org.apache.hadoop.hbase.tool.LoadIncrementalHFiles;
import org.apache.hadoop.hbase.util.Pair;
import org.apache.hbase.thirdparty.com.google.common.collect.Multimap;

/**
 * HBase's bulk loader over every pending region at once — one call, one bulk-load token, the
 * loader's own pool ({@code hbase.loadincremental.threads.max}, one thread per core by default) —
 * that says which staging region is loaded whole the moment its last file is. The ledger records
 * each region then, so a run killed mid-load leaves exactly the loaded regions marked so. A call
 * per region (the design before) cost a bulk-load token, a RegionServer-side flush and a WAL marker
 * each, one region at a time.
 *
 * <p>Files are told apart by their path: the loader's copies live in {@code load/r-NNNNN/<family>/}
 * and a file the loader splits (its region split since the write) leaves its halves in that
 * family's {@code _tmp/}, still under the region's dir. Not thread-safe across calls: one instance
 * per load.
 */
final class RegionLoader extends BulkLoadHFilesTool {
  /** Told when a staging region's every file is loaded; called on the loader's threads. */
  interface Listener {
    void loaded(int region) throws IOException;
  }

  /** The first load that failed: the staging region it held files of, and why. */
  record Failure(int region, Throwable cause) {}

  private final Map<Integer, AtomicInteger> outstanding = new TreeMap<>();
  private final Listener listener;
  private final AtomicReference<Failure> failure = new AtomicReference<>();
  private final AtomicReference<RuntimeException> listenerFailure = new AtomicReference<>();
  private final AtomicInteger inFlight = new AtomicInteger();

  /**
   * @param filesPerRegion the files handed to the loader per staging region
   */
  RegionLoader(Configuration conf, Map<Integer, Integer> filesPerRegion, Listener listener) {
    super(conf);
    filesPerRegion.forEach((r, n) -> outstanding.put(r, new AtomicInteger(n)));
    this.listener = listener;
  }

  /** Staging regions some of whose files were not loaded. */
  List<Integer> unfinished() {
    return outstanding.entrySet().stream()
        .filter(e -> e.getValue().get() > 0)
        .map(Map.Entry::getKey)
        .toList();
  }

  /** The first failed region load, if any. */
  Failure failure() {
    return failure.get();
  }

  /** What the listener threw (a ledger write, or a caller's own stop), if anything. */
  RuntimeException listenerFailure() {
    return listenerFailure.get();
  }

  /**
   * True while a region's load request is still running: the loader returns at its first failure
   * and leaves requests already sent to finish on its pool, and the ledger must be final before the
   * caller reads it.
   */
  boolean loading() {
    return inFlight.get() > 0;
  }

  @Override
  protected Pair<List<LoadIncrementalHFiles.LoadQueueItem>, String> groupOrSplit(
      Multimap<ByteBuffer, LoadIncrementalHFiles.LoadQueueItem> regionGroups,
      LoadIncrementalHFiles.LoadQueueItem item,
      Table table,
      Pair<byte[][], byte[][]> startEndKeys)
      throws IOException {
    Pair<List<LoadIncrementalHFiles.LoadQueueItem>, String> p;
    try {
      p = super.groupOrSplit(regionGroups, item, table, startEndKeys);
    } catch (IOException | RuntimeException e) {
      failure.compareAndSet(null, new Failure(region(item), e));
      throw e;
    }
    if (p != null && p.getFirst() != null) {
      // split at a boundary that appeared since the write: each half is loaded on its own
      counter(item).addAndGet(p.getFirst().size() - 1);
    } else if (p == null && !regionGroups.containsValue(item)) {
      done(item); // an HFile without cells: the loader skips it
    }
    return p;
  }

  @Override
  protected List<LoadIncrementalHFiles.LoadQueueItem> tryAtomicRegionLoad(
      Connection conn,
      TableName tableName,
      byte[] first,
      Collection<LoadIncrementalHFiles.LoadQueueItem> lqis,
      boolean copyFile)
      throws IOException {
    if (failure.get() != null) {
      // another region failed: leave this one to --resume rather than start it
      throw new IOException(
          "not started: the load of region " + failure.get().region() + " failed");
    }
    inFlight.incrementAndGet();
    try {
      List<LoadIncrementalHFiles.LoadQueueItem> retry =
          super.tryAtomicRegionLoad(conn, tableName, first, lqis, copyFile);
      if (retry.isEmpty()) {
        for (LoadIncrementalHFiles.LoadQueueItem lqi : lqis) {
          done(lqi);
        }
      }
      return retry;
    } catch (IOException | RuntimeException e) {
      int region = lqis.stream().mapToInt(RegionLoader::region).min().orElse(-1);
      failure.compareAndSet(null, new Failure(region, e));
      throw e;
    } finally {
      inFlight.decrementAndGet();
    }
  }

  private void done(LoadIncrementalHFiles.LoadQueueItem item) throws IOException {
    int region = region(item);
    if (counter(item).decrementAndGet() == 0) {
      try {
        listener.loaded(region);
      } catch (RuntimeException e) {
        listenerFailure.compareAndSet(null, e);
        throw e;
      }
    }
  }

  private AtomicInteger counter(LoadIncrementalHFiles.LoadQueueItem item) {
    AtomicInteger c = outstanding.get(region(item));
    if (c == null) {
      throw new IllegalStateException("not a file of a pending region: " + item.getFilePath());
    }
    return c;
  }

  private static int region(LoadIncrementalHFiles.LoadQueueItem item) {
    return Staging.regionOf(item.getFilePath()).orElse(-1);
  }
}

package dev.rekey.jobs.repair;

import dev.rekey.common.TimeWindow;
import dev.rekey.read.ReadPlan;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.KeyRange;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/**
 * With --compact-if-masked, the major compaction a repair's Puts need started before the compare
 * instead of after it, so that it runs while the buckets are compared: a raw scan of the buckets'
 * key ranges in the new table (a background thread on the driver) finds the regions holding delete
 * markers, and each region whose markers are all as old as the snapshot or older is flushed and
 * major-compacted (HBase compacts in the background). The writers then only wait for those regions
 * (and compact the others, as before); their raw scan of the rows to put still decides what is
 * written. A region with a marker newer than the snapshot is left to that check: its markers are
 * deletes the application made after the snapshot, and the check must see them to keep those cells
 * deleted.
 */
final class EarlyCompaction {
  private static final EarlyCompaction NONE =
      new EarlyCompaction(CompletableFuture.completedFuture(Set.of()));

  /** No early compaction: the writers' own check does it all (a replay, a dry run). */
  static EarlyCompaction none() {
    return NONE;
  }

  private final CompletableFuture<Set<String>> requested;
  private long scanNanos;

  private EarlyCompaction(CompletableFuture<Set<String>> requested) {
    this.requested = requested;
  }

  /**
   * Starts the scan (and the compactions it asks for) in the background; nothing when the options
   * do not compact, when every family keeps NEW_VERSION_BEHAVIOR ({@code everyFamilyWrittenAfter}:
   * no marker hides a cell written now), or when the new layout does not keep time in key order
   * (the buckets are not key ranges: the writers' own check then does it all).
   */
  static EarlyCompaction start(
      Connection conn,
      RepairOptions options,
      Set<Integer> buckets,
      long snapshotTime,
      boolean everyFamilyWrittenAfter,
      Consumer<String> progress) {
    if (!options.compactIfMasked() || options.dryRun() != null || buckets.isEmpty()) {
      return NONE;
    }
    ReadPlan plan = plan(options.neu().layout(), TimeBucketSpans.of(buckets, options.buckets()));
    if (plan == null || everyFamilyWrittenAfter) {
      return NONE; // not key ranges, or no marker hides a cell written now: nothing to compact
    }
    TableName table = TableName.valueOf(options.table());
    EarlyCompaction out = new EarlyCompaction(new CompletableFuture<>());
    Thread t =
        new Thread(
            () -> {
              long t0 = System.nanoTime();
              try {
                out.requested.complete(scanAndCompact(conn, table, plan, snapshotTime, progress));
              } catch (IOException | RuntimeException e) {
                progress.accept(
                    String.format(
                        "  (the early search for delete markers failed: %s; they are looked for"
                            + " before writing)",
                        e.getMessage()));
                out.requested.complete(Set.of());
              } finally {
                out.scanNanos = System.nanoTime() - t0;
              }
            },
            "rekey-repair-markers");
    t.setDaemon(true);
    t.start();
    return out;
  }

  /**
   * The key ranges of the windows in the new layout, or null when the layout does not keep time in
   * key order.
   */
  static ReadPlan plan(KeyLayout layout, List<TimeWindow> windows) {
    ReadPlan p = ReadPlan.windows(layout, windows);
    return p.keyRanges() ? p : null;
  }

  /** True when a region's markers may be compacted away before the compare (pure). */
  static boolean compactEarly(long markersUpToSnapshot, long markersAfterSnapshot) {
    return markersUpToSnapshot > 0 && markersAfterSnapshot == 0;
  }

  /** The regions (encoded names) compacted early, once the scan is done (waits for it). */
  Set<String> requested() {
    try {
      return requested.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Set.of();
    } catch (ExecutionException e) {
      return Set.of();
    }
  }

  /** How long the background scan took (0 before it ends). */
  long scanNanos() {
    return scanNanos;
  }

  private static Set<String> scanAndCompact(
      Connection conn, TableName table, ReadPlan plan, long snapshotTime, Consumer<String> progress)
      throws IOException {
    Set<String> out = new TreeSet<>();
    boolean flushed = false;
    try (RegionLocator locator = conn.getRegionLocator(table);
        Table t = conn.getTable(table);
        Admin admin = conn.getAdmin()) {
      for (HRegionLocation loc : locator.getAllRegionLocations()) {
        RegionInfo region = loc.getRegion();
        long[] upToAndAfter = new long[2]; // markers as old as the snapshot or older; newer
        for (KeyRange r : plan.within(region.getStartKey(), region.getEndKey())) {
          Scan range =
              new Scan()
                  .withStartRow(r.start())
                  .withStopRow(r.stop())
                  .setCacheBlocks(false)
                  .setCaching(2000);
          MarkerScan.forEach(
              t, range, (row, m) -> upToAndAfter[m.timestamp() > snapshotTime ? 1 : 0]++);
        }
        if (compactEarly(upToAndAfter[0], upToAndAfter[1])) {
          if (!flushed) {
            admin.flush(table); // the markers may still be in the memstore
            flushed = true;
          }
          admin.majorCompactRegion(region.getRegionName());
          out.add(region.getEncodedName());
        }
      }
    }
    if (!out.isEmpty()) {
      progress.accept(
          String.format(
              "  delete markers in the buckets' key ranges: major-compacting %d region%s of %s"
                  + " while the buckets are compared",
              out.size(), out.size() == 1 ? "" : "s", table));
    }
    return out;
  }
}

package dev.rekey.jobs.backfill;

import dev.rekey.jobs.common.Poll;
import dev.rekey.jobs.common.RekeyException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.tool.BulkLoadHFilesTool;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The backfill's load step: the WRITTEN regions of the ledger into the target, one bulk-load call
 * per region, on one connection.
 */
final class BulkLoadStep {
  private final JavaSparkContext jsc;
  private final Configuration hbaseConf;
  private final Consumer<String> progress;

  BulkLoadStep(JavaSparkContext jsc, Configuration hbaseConf, Consumer<String> progress) {
    this.jsc = jsc;
    this.hbaseConf = hbaseConf;
    this.progress = progress;
  }

  /**
   * Hadoop conf key: how many regions are loaded at once (default {@value #DEFAULT_LOAD_THREADS}).
   * Each region is still one bulk-load call, recorded LOADED in the ledger as soon as it returns.
   * One by default: with four concurrent calls (each its own bulk-load token) the HBase 2.6.1
   * RegionServer on a local filesystem failed some of them ("partial failure due to IO", files
   * missing from its per-token staging dir) and timed others out, in BackfillIT on a loaded
   * machine.
   */
  static final String LOAD_THREADS = "rekey.backfill.load.threads";

  static final int DEFAULT_LOAD_THREADS = 1;

  /**
   * Loads the WRITTEN regions one bulk-load call each (the loader splits a file whose region split
   * since the write), over the job's one connection ({@link #LOAD_THREADS} at a time), and records
   * each region as LOADED in the ledger as soon as its call returns: a run killed during the load
   * leaves the regions already loaded marked so, and a --resume loads only the others (a region's
   * families go in one atomic bulk-load request, so a region is loaded whole or not at all). The
   * loader gets a copy: it moves its inputs and may delete them (HBASE-30501), so our files stay in
   * regions/ until verified. Nothing is loaded when hbase:meta shows a hole or an overlap in the
   * table.
   */
  Manifest load(Connection conn, Staging staging, TableName table, Manifest m) throws IOException {
    List<RegionEntry> pending =
        m.regions().stream().filter(r -> r.state() == RegionState.WRITTEN).toList();
    if (!pending.isEmpty()) {
      checkMeta(conn, table);
    }
    Path copy = staging.loadRoot();
    staging.fs.delete(copy, true);
    // every pending region's files are counted against the ledger before anything is loaded
    Map<Integer, Map<byte[], List<Path>>> copies = new TreeMap<>();
    Map<Integer, List<String[]>> pairs = new TreeMap<>();
    for (RegionEntry r : pending) {
      if (r.files() > 0) {
        Map<byte[], List<Path>> byFamily = new TreeMap<>(Bytes.BYTES_COMPARATOR);
        List<String[]> regionPairs = new ArrayList<>();
        LoaderCopies.planCopies(
            staging, r, table, LoaderCopies.regionCopy(copy, r), byFamily, regionPairs);
        copies.put(r.index(), byFamily);
        pairs.put(r.index(), regionPairs);
      }
    }
    Ledger ledger = new Ledger(staging, m);
    pending = notLoadedYet(staging, table, pending, ledger);
    // the copies of every region still to load, all at once (in Spark tasks where a copy writes the
    // data again)
    List<String[]> toCopy = new ArrayList<>();
    for (RegionEntry r : pending) {
      toCopy.addAll(pairs.getOrDefault(r.index(), List.of()));
    }
    LoaderCopies.keepOriginals(jsc, hbaseConf, staging, toCopy);
    int threads =
        Math.max(1, Math.min(hbaseConf.getInt(LOAD_THREADS, DEFAULT_LOAD_THREADS), pending.size()));
    ExecutorService pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "rekey-load-" + table.getNameAsString());
              t.setDaemon(true);
              return t;
            });
    // the loader keeps per-call state (not thread-safe): one per loading thread, all on one
    // connection (BulkLoadHFiles.bulkLoad would open a connection, ~0.5 s, per region)
    Configuration c = new Configuration(hbaseConf);
    c.set(BulkLoadHFiles.CREATE_TABLE_CONF_KEY, "no");
    ThreadLocal<BulkLoadHFilesTool> loaders =
        ThreadLocal.withInitial(() -> new BulkLoadHFilesTool(c));
    AtomicBoolean failed = new AtomicBoolean();
    List<Future<?>> running = new ArrayList<>();
    try {
      for (RegionEntry r : pending) {
        running.add(
            pool.submit(
                () -> {
                  if (failed.get()) {
                    return null; // another region failed: leave this one WRITTEN for --resume
                  }
                  try {
                    Map<byte[], List<Path>> byFamily = copies.get(r.index());
                    if (byFamily != null) {
                      loadRegion(
                          conn,
                          loaders.get(),
                          staging,
                          table,
                          r,
                          LoaderCopies.regionCopy(copy, r),
                          byFamily);
                    }
                    ledger.loaded(r);
                  } catch (IOException | RuntimeException e) {
                    failed.set(true);
                    throw e;
                  }
                  return null;
                }));
      }
      Throwable first = null;
      for (Future<?> f : running) {
        try {
          f.get();
        } catch (ExecutionException e) {
          if (first == null) {
            first = e.getCause();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while loading " + table);
        }
      }
      if (first instanceof IOException io) {
        throw io;
      }
      if (first instanceof RuntimeException re) {
        throw re;
      }
      if (first != null) {
        throw new IOException(first);
      }
    } finally {
      pool.shutdownNow();
    }
    staging.fs.delete(copy, true);
    progress.accept(
        "Loaded "
            + pending.size()
            + " regions into "
            + table
            + " ("
            + pending.stream().mapToInt(RegionEntry::files).sum()
            + " HFiles)");
    return ledger.manifest();
  }

  /** One region's files in one bulk-load call on the shared connection. */
  private void loadRegion(
      Connection conn,
      BulkLoadHFilesTool loader,
      Staging staging,
      TableName table,
      RegionEntry r,
      Path regionCopy,
      Map<byte[], List<Path>> byFamily)
      throws IOException {
    waitUntilAvailable(conn, table);
    Map<?, ?> loaded;
    try (Admin admin = conn.getAdmin();
        Table t = conn.getTable(table);
        RegionLocator locator = conn.getRegionLocator(table)) {
      loaded = loader.doBulkLoad(byFamily, admin, t, locator, false, false);
    } catch (IOException e) {
      throw new RekeyException(
          "Cannot load region "
              + r.index()
              + " of "
              + table
              + ": "
              + oneLine(e)
              + " (the ledger keeps the region unloaded and its HFiles in "
              + staging.region(r.index())
              + "; fix the cause and rerun with --resume)",
          e);
    }
    if (loaded == null || loaded.isEmpty()) {
      throw new RekeyException(
          "Cannot load region "
              + r.index()
              + " of "
              + table
              + ": BulkLoadHFiles loaded none "
              + "of its "
              + r.files()
              + " HFiles in "
              + regionCopy
              + " (the originals are kept in "
              + staging.region(r.index())
              + "; rerun with --resume)");
    }
    staging.fs.delete(regionCopy, true);
  }

  /**
   * A loader failure as one line: its message's first line, and its innermost cause's when that
   * says more (the RPC layer's "Failed after attempts=N, exceptions:" hides the RegionServer's
   * reason on the lines after it).
   */
  static String oneLine(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String line = firstLine(e.getMessage());
    String cause = firstLine(root.getMessage());
    if (line.isEmpty()) {
      line = e.getClass().getSimpleName();
    }
    if (root != e && !cause.isEmpty() && !line.contains(cause)) {
      line += " (cause: " + root.getClass().getSimpleName() + ": " + cause + ")";
    }
    return line;
  }

  private static String firstLine(String message) {
    return message == null ? "" : message.strip().lines().findFirst().orElse("").strip();
  }

  /**
   * The ledger as regions finish loading on several threads: each LOADED entry is written to the
   * manifest (and its progress line printed) before the next one, so the file always lists exactly
   * the regions whose load returned.
   */
  private final class Ledger {
    private final Staging staging;
    private Manifest m;

    Ledger(Staging staging, Manifest m) {
      this.staging = staging;
      this.m = m;
    }

    synchronized void loaded(RegionEntry r) throws IOException {
      m = m.withRegion(r.withState(RegionState.LOADED));
      staging.writeJson(staging.manifest(), m);
      progress.accept(
          String.format(
              "  loaded region %d [%s, %s): %d HFiles",
              r.index(), r.startHex(), r.endHex(), r.files()));
    }

    synchronized Manifest manifest() {
      return m;
    }
  }

  /**
   * The pending regions whose HFiles are not store files of the table yet. A run killed after a
   * region's bulk-load call returned and before the ledger said so (a window as wide as the regions
   * loading at once) left that region WRITTEN with its files in the table: loading them again would
   * put every cell in the store twice. Such a region is recorded LOADED without a second load, with
   * a note. The files are matched by family, keys, cell count and the time their writer stamped in
   * them, so another run's files with the same keys are never taken for ours.
   */
  private List<RegionEntry> notLoadedYet(
      Staging staging, TableName table, List<RegionEntry> pending, Ledger ledger)
      throws IOException {
    List<RegionEntry> withFiles = pending.stream().filter(r -> r.files() > 0).toList();
    if (withFiles.isEmpty()) {
      return pending;
    }
    Optional<Set<LoadedFiles.Fingerprint>> inTable = LoadedFiles.inTable(hbaseConf, table);
    if (inTable.isEmpty() || inTable.get().isEmpty()) {
      return pending; // an empty target (or one we cannot read: then the verify checks cells)
    }
    Map<Integer, LoadedFiles.Outcome> already =
        LoadedFiles.check(staging, withFiles, inTable.get(), hbaseConf);
    List<RegionEntry> rest = new ArrayList<>();
    for (RegionEntry r : pending) {
      LoadedFiles.Outcome o = already.get(r.index());
      if (o != null && o.matched()) {
        progress.accept(
            "  region "
                + r.index()
                + ": its "
                + r.files()
                + " HFiles are store files of "
                + table
                + " already (loaded by a run that stopped before its ledger said so): not loaded"
                + " again");
        ledger.loaded(r);
      } else {
        rest.add(r);
      }
    }
    return rest;
  }

  /**
   * Refuses the load when hbase:meta does not list the table's regions as one chain from the empty
   * start key to the empty end key: the loader would find no region, or the wrong one, for some
   * files.
   */
  private static void checkMeta(Connection conn, TableName table) throws IOException {
    List<RegionChain.Span> spans = new ArrayList<>();
    try (Admin admin = conn.getAdmin()) {
      for (RegionInfo ri : admin.getRegions(table)) {
        spans.add(new RegionChain.Span(ri.getStartKey(), ri.getEndKey(), ri.getEncodedName()));
      }
    }
    List<String> problems = RegionChain.problems(spans);
    if (!problems.isEmpty()) {
      throw new RekeyException(
          "Cannot load into "
              + table
              + ": hbase:meta does not cover its keys exactly once: "
              + String.join("; ", problems)
              + ". Nothing was loaded; the HFiles are kept in the staging dir. Repair meta with"
              + " HBCK2 (`hbase hbck -j hbase-hbck2.jar fixMeta`, or `addFsRegionsMissingInMeta`"
              + " for a region missing from meta), check it with `hbase hbck -j hbase-hbck2.jar"
              + " reportMissingRegionsInMeta "
              + table
              + "` and the master UI's HBCK report, then rerun with --resume");
    }
  }

  /**
   * A region split or move in progress makes the loader refuse the table: wait for it (bounded).
   */
  private void waitUntilAvailable(Connection conn, TableName table) throws IOException {
    try (Admin admin = conn.getAdmin()) {
      Poll.until(
          () -> admin.isTableAvailable(table),
          Duration.ofSeconds(120),
          Duration.ofMillis(500),
          () ->
              new RekeyException(
                  "Cannot load into "
                      + table
                      + ": the table has not been available for 120 s "
                      + "(regions in transition?). The HFiles are kept in the staging dir; rerun with --resume when the "
                      + "table is available."));
    }
  }
}

package dev.rekey.jobs.backfill.load;

import dev.rekey.common.Poll;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.plan.RegionChain;
import dev.rekey.jobs.backfill.staging.Ledger;
import dev.rekey.jobs.backfill.staging.Manifest;
import dev.rekey.jobs.backfill.staging.RegionEntry;
import dev.rekey.jobs.backfill.staging.RegionState;
import dev.rekey.jobs.backfill.staging.Staging;
import dev.rekey.jobs.backfill.verify.LoadedFiles;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
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
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The backfill's load step: the WRITTEN regions of the ledger into the target, in one call of
 * HBase's bulk loader on one connection, each region recorded in the ledger as it finishes.
 */
public final class BulkLoadStep {
  private final JavaSparkContext jsc;
  private final Configuration hbaseConf;
  private final Consumer<String> progress;

  public BulkLoadStep(JavaSparkContext jsc, Configuration hbaseConf, Consumer<String> progress) {
    this.jsc = jsc;
    this.hbaseConf = hbaseConf;
    this.progress = progress;
  }

  /**
   * Loads the WRITTEN regions in one call of HBase's loader, which loads regions in parallel on its
   * own pool ({@code hbase.loadincremental.threads.max}) under one bulk-load token and splits a
   * file whose region split since the write, over the job's one connection. Each region is recorded
   * as LOADED in the ledger the moment its last file is loaded ({@link RegionLoader}): a run killed
   * during the load leaves the regions already loaded marked so, and a --resume loads only the
   * others (a region's families go in one atomic bulk-load request, so a region is loaded whole or
   * not at all). The loader gets a copy: it moves its inputs and may delete them (HBASE-30501), so
   * our files stay in regions/ until verified. Nothing is loaded when hbase:meta shows a hole or an
   * overlap in the table. {@code starting} runs once before the first request, only when there is
   * something to load (the backfill records the load in the target there).
   */
  public Manifest load(
      Connection conn, Staging staging, TableName table, Manifest m, Starting starting)
      throws IOException {
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
    // data again), and one map of every family's files for the loader
    List<String[]> toCopy = new ArrayList<>();
    Map<byte[], List<Path>> all = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    Map<Integer, Integer> filesPerRegion = new TreeMap<>();
    Map<Integer, RegionEntry> byIndex = new TreeMap<>();
    for (RegionEntry r : pending) {
      byIndex.put(r.index(), r);
      Map<byte[], List<Path>> byFamily = copies.get(r.index());
      if (byFamily == null) {
        ledger.loaded(r); // no files: nothing to load
        continue;
      }
      toCopy.addAll(pairs.get(r.index()));
      filesPerRegion.put(r.index(), r.files());
      byFamily.forEach((f, paths) -> all.computeIfAbsent(f, x -> new ArrayList<>()).addAll(paths));
    }
    LoaderCopies.keepOriginals(jsc, hbaseConf, staging, toCopy);
    if (!all.isEmpty()) {
      starting.loading();
      loadAll(conn, staging, table, copy, all, filesPerRegion, byIndex, ledger);
    }
    staging.fs.delete(copy, true);
    progress.accept(
        String.format(
            "Loaded %d regions into %s (%d HFiles)",
            pending.size(), table, pending.stream().mapToInt(RegionEntry::files).sum()));
    return ledger.manifest();
  }

  /** Called once the files are checked and copied, right before the first bulk-load request. */
  @FunctionalInterface
  public interface Starting {
    void loading() throws IOException;
  }

  /** Every pending region's files in one loader call; the ledger records regions as they finish. */
  private void loadAll(
      Connection conn,
      Staging staging,
      TableName table,
      Path copy,
      Map<byte[], List<Path>> all,
      Map<Integer, Integer> filesPerRegion,
      Map<Integer, RegionEntry> byIndex,
      Ledger ledger)
      throws IOException {
    waitUntilAvailable(conn, table);
    Configuration c = new Configuration(hbaseConf);
    c.set(BulkLoadHFiles.CREATE_TABLE_CONF_KEY, "no");
    RegionLoader loader =
        new RegionLoader(c, filesPerRegion, region -> ledger.loaded(byIndex.get(region)));
    Exception failed = null;
    try (Admin admin = conn.getAdmin();
        Table t = conn.getTable(table);
        RegionLocator locator = conn.getRegionLocator(table)) {
      loader.doBulkLoad(all, admin, t, locator, false, false);
    } catch (IOException | RuntimeException e) {
      failed = e;
    }
    // requests already sent finish on the loader's pool after it gave up: the ledger must be final
    // before anyone reads it
    Poll.until(
        () -> !loader.loading(),
        Duration.ofMinutes(10),
        Duration.ofMillis(20),
        () -> RekeyException.cannot("Cannot load into %s: a bulk-load request hung", table));
    if (loader.listenerFailure() != null) {
      throw loader.listenerFailure(); // a ledger write failed: as it was thrown
    }
    List<Integer> unfinished = loader.unfinished();
    if (failed == null && unfinished.isEmpty()) {
      return;
    }
    RegionLoader.Failure f = loader.failure();
    Throwable cause = f != null ? f.cause() : failed;
    // a failure outside any region's request (reading the files before the first one) names no
    // region; its message names the file
    int region =
        f != null
            ? (byIndex.containsKey(f.region()) ? f.region() : -1)
            : cause == null && !unfinished.isEmpty() ? unfinished.get(0) : -1;
    String why =
        cause != null
            ? oneLine(cause)
            : String.format(
                "BulkLoadHFiles loaded only part of its HFiles (the rest are in %s)",
                LoaderCopies.regionCopy(copy, byIndex.get(region)));
    String kept =
        region < 0
            ? "every region not loaded so and their HFiles in " + staging.region(0).getParent()
            : "the region unloaded and its HFiles in " + staging.region(region);
    throw RekeyException.cannot(
        cause,
        "Cannot load %s: %s (the ledger keeps %s; fix the cause and rerun with --resume)",
        region < 0 ? "into " + table : "region " + region + " of " + table,
        why,
        kept);
  }

  /** A loader failure as one line ({@link RekeyException#oneLine}). */
  static String oneLine(Throwable e) {
    return RekeyException.oneLine(e);
  }

  /**
   * The ledger as regions finish loading on the loader's threads: each LOADED entry is written to
   * the manifest (and its progress line printed) before the next one, so the file always lists
   * exactly the regions whose load returned.
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
            String.format(
                "  region %d: its %d HFiles are store files of %s already (loaded by a run that"
                    + " stopped before its ledger said so): not loaded again",
                r.index(), r.files(), table));
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
      throw RekeyException.cannot(
          "Cannot load into %1$s: hbase:meta does not cover its keys exactly once: %2$s. Nothing"
              + " was loaded; the HFiles are kept in the staging dir. Repair meta with HBCK2"
              + " (`hbase hbck -j hbase-hbck2.jar fixMeta`, or `addFsRegionsMissingInMeta` for a"
              + " region missing from meta), check it with `hbase hbck -j hbase-hbck2.jar"
              + " reportMissingRegionsInMeta %1$s` and the master UI's HBCK report, then rerun"
              + " with --resume",
          table, String.join("; ", problems));
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
              RekeyException.cannot(
                  "Cannot load into %s: the table has not been available for 120 s (regions in"
                      + " transition?). The HFiles are kept in the staging dir; rerun with --resume"
                      + " when the table is available.",
                  table));
    }
  }
}

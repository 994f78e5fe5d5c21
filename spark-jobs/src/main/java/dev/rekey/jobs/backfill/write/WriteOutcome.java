package dev.rekey.jobs.backfill.write;

import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.Accounting;
import dev.rekey.jobs.backfill.BackfillOptions;
import dev.rekey.jobs.backfill.TargetRun;
import dev.rekey.jobs.backfill.load.StagedFiles;
import dev.rekey.jobs.backfill.plan.RegionBoundaries;
import dev.rekey.jobs.backfill.staging.Manifest;
import dev.rekey.jobs.backfill.staging.RegionEntry;
import dev.rekey.jobs.backfill.staging.RegionState;
import dev.rekey.jobs.backfill.staging.Staging;
import dev.rekey.rowkey.Hex;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;

/**
 * Turns what the write reported into the manifest's ledger (every region {@code WRITTEN}), or
 * refuses before anything is loaded: collisions, cells past a target family's TTL, more quarantined
 * keys than allowed, a region with rows but no HFile, counts that do not balance. Each refusal
 * removes the write's files and says what to do next.
 */
public final class WriteOutcome {
  private WriteOutcome() {}

  /**
   * The manifest of {@code run}'s write {@code w}; the accounting line goes to {@code progress}.
   */
  public static Manifest manifest(TargetRun run, Written w, Consumer<String> progress)
      throws IOException {
    BackfillOptions o = run.options();
    RowCounters c = w.counters();
    refuseCollisionsAndExpired(run, w);
    List<RegionEntry> regions = regions(run, w);
    long written = regions.stream().mapToLong(RegionEntry::rows).sum();
    Accounting acc =
        new Accounting(c.read.value(), written, c.quarantined.value(), c.filtered.value());
    refuseUnaccounted(run, acc);
    progress.accept("  " + acc.line());
    if (c.olderVersions.value() > 0) {
      progress.accept(
          String.format(
              "  %,d older cell versions not copied: %s (raise a family's VERSIONS with "
                  + "`alter '%s', {NAME => 'FAMILY', VERSIONS => N}` and rerun to keep them)",
              c.olderVersions.value(), keptVersions(run.target()), o.targetTable()));
    }
    return new Manifest(
        Manifest.VERSION,
        o.sourceSnapshot(),
        o.sourceLayout().name(),
        o.targetTable(),
        o.targetLayout().name(),
        o.cellTime().from(),
        o.cellTime().to(),
        o.families(),
        o.splitsPerRegion(),
        Instant.now().toString(),
        regions,
        hours(w.tally().counts()),
        acc,
        o.versions().toString(),
        c.olderVersions.value(),
        run.plan().path().describe(),
        o.shard() == null ? null : o.shard().toString());
  }

  /** Target keys from two source rows, or cells the target's TTL would expire: nothing kept. */
  private static void refuseCollisionsAndExpired(TargetRun run, Written w) throws IOException {
    BackfillOptions o = run.options();
    Staging staging = run.staging();
    if (w.tally().collisions().value() > 0) {
      staging.fs.delete(staging.attempts(), true);
      List<String> ex = w.tally().examples().value();
      throw RekeyException.cannot(
          "Cannot backfill %s: %d target row key(s) would each come from more than one source row"
              + " with layouts %s -> %s, e.g. %s. Nothing was loaded. Choose a target layout that"
              + " keeps every field that makes a source key unique.",
          o.targetTable(),
          w.tally().collisions().value(),
          o.sourceLayout().name(),
          o.targetLayout().name(),
          String.join("; ", ex.subList(0, Math.min(3, ex.size()))));
    }
    long expired = w.counters().expired.value();
    if (expired > 0) {
      staging.fs.delete(staging.attempts(), true);
      throw RekeyException.cannot(
          "Cannot backfill %1$s: %2$d cells are older than their target family's TTL (%3$s) and"
              + " would expire as soon as they are loaded. Nothing was loaded. Raise the TTL"
              + " (`alter '%1$s', {NAME => 'FAMILY', TTL => SECONDS}`), or copy only the cells it"
              + " keeps with --from.",
          o.targetTable(), expired, ttls(run.target()));
    }
  }

  /**
   * The kept attempts' files moved to their regions, and every live region's ledger entry: {@code
   * WRITTEN}, with its rows, cells, bytes and files.
   */
  private static List<RegionEntry> regions(TargetRun run, Written w) throws IOException {
    Staging staging = run.staging();
    RegionBoundaries live = run.live();
    Map<Integer, Integer> filesPerRegion = StagedFiles.organize(staging, w.files());
    List<RegionEntry> regions = new ArrayList<>();
    KeyedCounts counts = w.tally().counts();
    for (int i = 0; i < live.count(); i++) {
      long r = counts.get("rows." + i);
      if (r > 0 && filesPerRegion.getOrDefault(i, 0) == 0) {
        // the ledger must never say a region with rows has nothing to load (it would be
        // "verified" empty)
        throw RekeyException.cannot(
            "Cannot backfill %s: %d rows were written for region %d but %s holds no HFile for it"
                + " (did another process clean the staging dir?). Nothing was loaded; rerun.",
            run.options().targetTable(), r, i, staging.root);
      }
      regions.add(
          new RegionEntry(
              i,
              live.name(i),
              Hex.of(live.start(i)),
              Hex.of(live.end(i)),
              r,
              counts.get("cells." + i),
              counts.get("bytes." + i),
              filesPerRegion.getOrDefault(i, 0),
              RegionState.WRITTEN));
    }
    return regions;
  }

  /** More quarantined rows than allowed, or counts that do not balance: nothing loaded. */
  private static void refuseUnaccounted(TargetRun run, Accounting acc) throws IOException {
    BackfillOptions o = run.options();
    Staging staging = run.staging();
    if (acc.quarantined() > o.maxQuarantined()) {
      staging.fs.delete(new Path(staging.root, "regions"), true);
      throw RekeyException.cannot(
          "Cannot backfill %s: %d of %d source row keys in snapshot %s do not decode with source"
              + " layout %s or hold a cell over the target's size limit%s; they are listed in %s."
              + " Nothing was loaded. Check --source-layout, or accept them with"
              + " --max-quarantined %2$d.",
          o.targetTable(),
          acc.quarantined(),
          acc.read(),
          o.sourceSnapshot(),
          o.sourceLayout().name(),
          StagedFiles.firstQuarantined(staging),
          staging.quarantine());
    }
    if (!acc.balances()) {
      throw RekeyException.cannot(
          "Cannot backfill %s: the counts do not balance (%s); nothing was loaded. Rerun; if it"
              + " persists, report it with %s",
          o.targetTable(), acc.line(), staging.root);
    }
  }

  /** Rows per hour of the target key's time field, by the hour's instant. */
  private static TreeMap<String, Long> hours(KeyedCounts counts) {
    TreeMap<String, Long> hours = new TreeMap<>();
    counts
        .value()
        .forEach(
            (key, v) -> {
              if (key.startsWith("hour.")) {
                hours.put(key.substring(5), v);
              }
            });
    return hours;
  }

  private static String ttls(TableDescriptor target) {
    List<String> out = new ArrayList<>();
    for (ColumnFamilyDescriptor f : target.getColumnFamilies()) {
      if (f.getTimeToLive() != HConstants.FOREVER) {
        out.add("family " + f.getNameAsString() + ": TTL " + f.getTimeToLive() + " s");
      }
    }
    return String.join(", ", out);
  }

  private static String keptVersions(TableDescriptor target) {
    List<String> out = new ArrayList<>();
    for (ColumnFamilyDescriptor f : target.getColumnFamilies()) {
      out.add(
          String.format(
              "family %s of %s keeps VERSIONS=%d",
              f.getNameAsString(), target.getTableName(), f.getMaxVersions()));
    }
    return String.join(", ", out);
  }
}

package dev.rekey.jobs.backfill;

import dev.rekey.jobs.common.RekeyException;
import dev.rekey.rowkey.Hex;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
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
final class WriteOutcome {
  private WriteOutcome() {}

  static Manifest manifest(
      BackfillOptions o,
      BackfillPlan plan,
      Staging staging,
      RegionBoundaries live,
      TableDescriptor target,
      WriteStep.Written w,
      Configuration hbaseConf,
      Consumer<String> progress)
      throws IOException {
    RowCounters c = w.counters();
    if (w.collisions().value() > 0) {
      staging.fs.delete(staging.attempts(), true);
      List<String> ex = w.examples().value();
      throw RekeyException.cannot(
          "Cannot backfill %s: %d target row key(s) would each come from more than one source row"
              + " with layouts %s -> %s, e.g. %s. Nothing was loaded. Choose a target layout that"
              + " keeps every field that makes a source key unique.",
          o.targetTable(),
          w.collisions().value(),
          o.sourceLayout().name(),
          o.targetLayout().name(),
          String.join("; ", ex.subList(0, Math.min(3, ex.size()))));
    }
    if (c.expired.value() > 0) {
      staging.fs.delete(staging.attempts(), true);
      throw RekeyException.cannot(
          "Cannot backfill %1$s: %2$d cells are older than their target family's TTL (%3$s) and"
              + " would expire as soon as they are loaded. Nothing was loaded. Raise the TTL"
              + " (`alter '%1$s', {NAME => 'FAMILY', TTL => SECONDS}`), or copy only the cells it"
              + " keeps with --from.",
          o.targetTable(), c.expired.value(), ttls(target));
    }
    Map<Integer, Integer> filesPerRegion = StagedFiles.organize(staging, w.files());
    long written = 0;
    List<RegionEntry> regions = new ArrayList<>();
    KeyedCounts counts = w.counts();
    for (int i = 0; i < live.count(); i++) {
      long r = counts.get("rows." + i);
      if (r > 0 && filesPerRegion.getOrDefault(i, 0) == 0) {
        // the ledger must never say a region with rows has nothing to load (it would be
        // "verified" empty)
        throw RekeyException.cannot(
            "Cannot backfill %s: %d rows were written for region %d but %s holds no HFile for it"
                + " (did another process clean the staging dir?). Nothing was loaded; rerun.",
            o.targetTable(), r, i, staging.root);
      }
      written += r;
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
    Accounting acc =
        new Accounting(c.read.value(), written, c.quarantined.value(), c.filtered.value());
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
    TreeMap<String, Long> hours = new TreeMap<>();
    counts
        .value()
        .forEach(
            (key, v) -> {
              if (key.startsWith("hour.")) {
                hours.put(key.substring(5), v);
              }
            });
    progress.accept("  " + acc.line());
    if (c.olderVersions.value() > 0) {
      progress.accept(
          String.format(
              "  %,d older cell versions not copied: %s (raise a family's VERSIONS with "
                  + "`alter '%s', {NAME => 'FAMILY', VERSIONS => N}` and rerun to keep them)",
              c.olderVersions.value(), keptVersions(target), o.targetTable()));
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
        hours,
        acc,
        o.versions().toString(),
        c.olderVersions.value(),
        plan.path().describe());
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

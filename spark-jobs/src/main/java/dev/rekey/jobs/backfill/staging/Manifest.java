package dev.rekey.jobs.backfill.staging;

import dev.rekey.common.TimeWindow;
import dev.rekey.jobs.backfill.Accounting;
import dev.rekey.jobs.backfill.BackfillOptions;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * {@code _manifest.json} in the staging dir (written as .tmp then renamed): the inputs, layouts,
 * the target's region boundaries at write time, rows/cells/bytes/files and ledger state per region,
 * rows per hour of the key's time field, the accounting, and the shard ({@code i/N}, null for the
 * whole snapshot). The ledger state in it is rewritten as regions are loaded and verified.
 */
public record Manifest(
    int version,
    String sourceSnapshot,
    String sourceLayout,
    String targetTable,
    String targetLayout,
    Long fromMillis,
    Long toMillis,
    List<String> families,
    int splitsPerRegion,
    String writtenAt,
    List<RegionEntry> regions,
    SortedMap<String, Long> rowsPerHour,
    Accounting accounting,
    String versions,
    long olderVersionsNotCopied,
    String writePath,
    String shard) {

  public static final int VERSION = 1;

  public Manifest {
    regions = List.copyOf(regions);
    rowsPerHour = new TreeMap<>(rowsPerHour);
    families = List.copyOf(families);
  }

  public Manifest withRegions(List<RegionEntry> r) {
    return new Manifest(
        version,
        sourceSnapshot,
        sourceLayout,
        targetTable,
        targetLayout,
        fromMillis,
        toMillis,
        families,
        splitsPerRegion,
        writtenAt,
        r,
        rowsPerHour,
        accounting,
        versions,
        olderVersionsNotCopied,
        writePath,
        shard);
  }

  public Manifest withRegion(RegionEntry e) {
    List<RegionEntry> copy = new java.util.ArrayList<>(regions);
    copy.set(e.index(), e);
    return withRegions(copy);
  }

  /** True if the inputs match the given options (a --resume must continue the same backfill). */
  public boolean sameInputs(BackfillOptions o) {
    return sourceSnapshot.equals(o.sourceSnapshot())
        && targetTable.equals(o.targetTable())
        && sourceLayout.equals(o.sourceLayout().name())
        && targetLayout.equals(o.targetLayout().name())
        // a manifest from before cell time ranges were one type wrote an open end as null
        && new TimeWindow(
                fromMillis == null ? 0 : fromMillis, toMillis == null ? Long.MAX_VALUE : toMillis)
            .equals(o.cellTime())
        && families.equals(o.families())
        // a manifest from before --versions read the newest version only
        && java.util.Objects.equals(versions == null ? "1" : versions, o.versions().toString())
        // a shard's ledger continues that shard only
        && java.util.Objects.equals(shard, o.shard() == null ? null : o.shard().toString());
  }
}

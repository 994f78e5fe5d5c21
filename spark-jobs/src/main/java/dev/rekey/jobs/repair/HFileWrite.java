package dev.rekey.jobs.repair;

import dev.rekey.common.DecodedCell;
import dev.rekey.common.HBaseConfigs;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.backfill.BackfillOptions;
import dev.rekey.jobs.backfill.RowsLoad;
import dev.rekey.targets.Target;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.spark.sql.SparkSession;

/**
 * A repair's HFile path (the Spark/HBase glue): the delete markers that would hide the rows' cells
 * found in Spark tasks (only the rows they hide reach the driver: markers older than the snapshot
 * compacted away or refused, as on the Puts path; cells deleted after it left out of the load), the
 * cells to put written by the backfill's HFile path ({@link RowsLoad}: sorted by new row key,
 * bulk-loaded with its ledger, locks and verification), then the few Deletes of --delete-extra
 * through a BufferedMutator. The load's ledger lives in the staging dir, so a run killed during the
 * load is finished by {@code --resume} without writing a region twice.
 */
final class HFileWrite {
  private final SparkSession spark;
  private final Configuration hbaseConf;
  private final RepairOptions options;
  private final Consumer<String> progress;
  private final Set<String> writtenAfter;
  private boolean compacted;

  /**
   * @param writtenAfter the new table's NEW_VERSION_BEHAVIOR families ({@link RepairWriter})
   */
  HFileWrite(
      SparkSession spark,
      Configuration hbaseConf,
      RepairOptions options,
      Consumer<String> progress,
      Set<String> writtenAfter) {
    this.spark = spark;
    this.hbaseConf = hbaseConf;
    this.options = options;
    this.progress = progress;
    this.writtenAfter = writtenAfter;
  }

  /**
   * The staging dir: --staging, else {@code <rekey.staging.root>/repair-<table>}
   * (rekey.properties), else {@code ~/.rekey-staging/repair-<table>} on the new cluster.
   */
  String staging() throws IOException {
    if (options.staging() != null) {
      return options.staging();
    }
    String root = hbaseConf.get(dev.rekey.jobs.backfill.Backfill.STAGING_ROOT);
    if (root != null && !root.isBlank()) {
      return new Path(root, "repair-" + Target.folderName(options.table())).toString();
    }
    FileSystem fs = FileSystem.get(hbaseConf);
    return new Path(
            fs.getHomeDirectory(), ".rekey-staging/repair-" + Target.folderName(options.table()))
        .toString();
  }

  private BackfillOptions load(String snapshot) throws IOException {
    return RowsLoad.options(
        snapshot, options.old().layout(), options.table(), options.neu().layout(), staging());
  }

  /**
   * With --resume, finishes the load a killed run left in the staging dir (its ledger loads only
   * the regions not loaded yet); true when there was one.
   */
  boolean resumePending() throws IOException {
    RowsLoad rl = new RowsLoad(spark, hbaseConf, progress);
    Optional<String> snapshot = rl.pending(staging());
    if (snapshot.isEmpty()) {
      return false;
    }
    if (!options.resume()) {
      throw RekeyException.cannot(
          "Cannot repair %s: a killed repair's HFile load is not finished in %s; add --resume to"
              + " finish it first (or remove the dir to drop it)",
          options.table(), staging());
    }
    progress.accept(
        String.format(
            "  resuming the HFile load a killed repair left in %s (regions loaded already are not"
                + " loaded again)",
            staging()));
    refuseUnverified(rl.resume(load(snapshot.get())));
    return true;
  }

  /** True when delete markers were compacted away before the load. */
  boolean compacted() {
    return compacted;
  }

  /**
   * Writes {@code pass}'s rows of {@code todo}; per bucket what was written (its cells to put and
   * delete as the comparison counted them).
   */
  Map<Integer, WriteCounts> write(
      Connection conn,
      ComparePass pass,
      String snapshot,
      long snapshotTime,
      Map<Integer, TimeBucketCounts> found,
      Set<Integer> todo,
      PhaseTimes times,
      EarlyCompaction early)
      throws IOException {
    RowsLoad rl = new RowsLoad(spark, hbaseConf, progress);
    times.start(PhaseTimes.MARKERS);
    RepairWriter writer =
        new RepairWriter(conn, TableName.valueOf(options.table()), snapshotTime, writtenAfter);
    List<MarkerScan.Hidden> hidden =
        MarkerScan.hidden(
            pass.toWrite(),
            HBaseConfigs.toMap(hbaseConf),
            options.table(),
            snapshotTime,
            writtenAfter);
    Map<String, Masking> masks = new HashMap<>();
    Map<String, List<DecodedCell>> keptDeleted = new HashMap<>();
    Map<Integer, Integer> keptPerBucket = new HashMap<>();
    List<RowMutation> masked = new ArrayList<>();
    for (MarkerScan.Hidden h : hidden) {
      masks.put(h.row().rowHex(), h.masking());
      if (h.masking().masked()) {
        masked.add(h.row());
      }
      if (!h.masking().deletedAfterSnapshot().isEmpty()) {
        keptDeleted.put(h.row().rowHex(), h.masking().deletedAfterSnapshot());
        keptPerBucket.merge(
            h.row().bucket(), h.masking().deletedAfterSnapshot().size(), Integer::sum);
      }
    }
    if (!masked.isEmpty()) {
      times.start(PhaseTimes.COMPACT);
      writer.compactOrRefuse(masked, masks, options, early.requested(), progress);
      compacted = true;
    }
    times.start(PhaseTimes.WRITE);
    // cells deleted after the snapshot are not loaded: a compaction may have taken their markers,
    // and a loaded copy would bring back a row the application deleted (the Puts path's keeping)
    RowsLoad.Loaded l = rl.load(load(snapshot), pass.putRows(keptDeleted));
    refuseUnverified(l);
    progress.accept(
        String.format(
            Locale.ROOT,
            "  loaded %,d cells of %,d rows in %d HFiles into %d region%s of %s",
            l.cells(),
            l.rows(),
            l.files(),
            l.regions(),
            l.regions() == 1 ? "" : "s",
            options.table()));
    List<RowMutation> deletes = pass.deleteRows();
    if (!deletes.isEmpty()) {
      writer.write(deletes, Map.of());
    }
    Map<Integer, WriteCounts> out = new HashMap<>();
    for (int b : todo) {
      TimeBucketCounts c = found.getOrDefault(b, TimeBucketCounts.NONE);
      int kept = keptPerBucket.getOrDefault(b, 0);
      out.put(b, new WriteCounts(c.cellsToPut() - kept, c.cellsToDelete(), kept));
    }
    times.stop();
    return out;
  }

  private void refuseUnverified(RowsLoad.Loaded l) throws IOException {
    if (!l.verified()) {
      throw RekeyException.cannot(
          "Cannot repair %s: some regions' HFiles are not in the table after the load (see the"
              + " lines above); their files are kept in %s. Rerun with --resume to load them"
              + " again",
          options.table(), staging());
    }
  }
}

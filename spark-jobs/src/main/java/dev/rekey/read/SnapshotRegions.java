package dev.rekey.read;

import dev.rekey.common.RekeyException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormat;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormatImpl;
import org.apache.hadoop.hbase.snapshot.SnapshotDescriptionUtils;
import org.apache.hadoop.hbase.snapshot.SnapshotManifest;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.mapreduce.Job;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The snapshot half of opening a {@link RegionReader}: the snapshot's manifest (it exists, it has
 * not expired, it has the families), its regions from the manifest alone, the restore into a
 * temporary dir and the splits per region. No connection to the cluster.
 */
public final class SnapshotRegions {
  private final RegionReader reader;
  private final String snapshot;

  /**
   * The snapshot input format's settings of every rekey snapshot read ({@code local}: a local
   * master, all tasks in this JVM).
   */
  static void snapshotReadSettings(Configuration jobConf, boolean local) {
    // Per-row scan metrics update job counters that Spark does not have: each update throws and
    // catches an exception, making snapshot reads 10-40x slower (1M rows: 136.6 s vs 3.3 s in the
    // backfill benchmark).
    jobConf.setBoolean(
        TableSnapshotInputFormatImpl.SNAPSHOT_INPUTFORMAT_SCAN_METRICS_ENABLED, false);
    // a full pass reads each store file front to back: sequential reads from the start, not a
    // positioned read per block until HBase switches over
    jobConf.set(TableSnapshotInputFormatImpl.SNAPSHOT_INPUTFORMAT_SCANNER_READTYPE, "STREAM");
    if (local) {
      // every task runs in this JVM: the split's preferred hosts (each region's HDFS block
      // distribution, a listing per store file) would place nothing
      jobConf.setBoolean(
          TableSnapshotInputFormatImpl.SNAPSHOT_INPUTFORMAT_LOCALITY_ENABLED_KEY, false);
    }
  }

  SnapshotRegions(RegionReader reader, String snapshot) {
    this.reader = reader;
    this.snapshot = snapshot;
  }

  /**
   * A snapshot: its regions from its own manifest, read from its files (restored as links into
   * {@code restoreDir}) through {@link KeyRangeSnapshotInputFormat}.
   */
  OpenedSource open(JavaSparkContext jsc, Job job, Path rootDir, FileSystem fs, Path restoreDir)
      throws IOException {
    Configuration jobConf = job.getConfiguration();
    snapshotReadSettings(jobConf, jsc.isLocal());
    if (jsc.getConf().getBoolean(RegionReader.IGNORE_EMPTY_SPLITS, true)) {
      throw RekeyException.cannot(
          "Cannot read snapshot %s with %s=true: snapshot splits report length 0"
              + " and Spark would drop them all (0 rows, no error). Run with --conf"
              + " %s=false (bin/rekey sets it).",
          snapshot, RegionReader.IGNORE_EMPTY_SPLITS, RegionReader.IGNORE_EMPTY_SPLITS);
    }
    // A snapshot is read from its files alone: no connection to the cluster (a ZooKeeper session
    // and master RPCs cost more than the rest of opening a small read), and the families are
    // checked against the snapshot's own schema, which outlives its table.
    SnapshotManifest manifest =
        completedManifest(jobConf, fs, rootDir, snapshot, "read snapshot " + snapshot, "it", "");
    // an expired snapshot stays on disk until HBase's cleaner runs, and then goes with its files
    // mid-read
    requireUnexpired(manifest);
    OpenedSource.checkFamilies(
        reader.families(),
        manifest.getTableDescriptor().getColumnFamilyNames().stream().map(Bytes::toString).toList(),
        "snapshot "
            + snapshot
            + " (of table "
            + manifest.getTableDescriptor().getTableName()
            + ")");
    try {
      TableSnapshotInputFormat.setInput(job, snapshot, restoreDir);
    } catch (org.apache.hadoop.hbase.snapshot.SnapshotTTLExpiredException e) {
      // the TTL passed between the check above and HBase's own in the restore: the same refusal
      requireUnexpired(manifest);
      throw e;
    }
    List<? extends RegionInfo> infos =
        TableSnapshotInputFormatImpl.getRegionInfosFromManifest(manifest);
    List<byte[][]> bounds = new ArrayList<>();
    for (RegionInfo ri : infos) {
      bounds.add(new byte[][] {ri.getStartKey(), ri.getEndKey()});
    }
    ReadPlan used = reader.plan();
    if (reader.plan().keyRanges()) {
      used =
          reader
              .plan()
              .fitting(
                  KeyRangeSnapshotInputFormat.firstRow(
                      jobConf,
                      manifest.getTableDescriptor(),
                      infos,
                      new Path(jobConf.get(RegionReader.RESTORE_DIR_KEY))));
    }
    // k splits per region along the keys each region holds (HBase's UniformSplit puts all of a
    // first or last region's time-leading keys into one split)
    int regions = Math.max(1, infos.size());
    int k = Math.max(reader.splitsPerRegion(), (reader.minPartitions() + regions - 1) / regions);
    jobConf.setInt(KeyRangeSnapshotInputFormat.SPLITS_PER_REGION, k);
    return new OpenedSource(bounds, used);
  }

  /** Refuses a snapshot whose TTL has passed: nothing is read from it. */
  private void requireUnexpired(SnapshotManifest manifest) {
    java.util.Optional<String> expired =
        SnapshotPresence.expiry(
            snapshot,
            manifest.getSnapshotDescription().getTtl(),
            manifest.getSnapshotDescription().getCreationTime(),
            System.currentTimeMillis());
    if (expired.isPresent()) {
      throw RekeyException.cannot(
          "Cannot read snapshot %s: %s. Nothing was read. Take a new snapshot"
              + " without a TTL (or with one longer than the job) and rerun with it.",
          snapshot, expired.get());
    }
  }

  /**
   * The completed snapshot's manifest, read from the HBase root's filesystem; a refusal if there is
   * no such snapshot: "Cannot {@code what}: {@code subject} does not exist{@code where} (how to
   * list and take one)". Shared with the backfill's source check, which says which cluster.
   */
  public static SnapshotManifest completedManifest(
      Configuration conf,
      FileSystem fs,
      Path rootDir,
      String snapshot,
      String what,
      String subject,
      String where)
      throws IOException {
    Path dir = SnapshotDescriptionUtils.getCompletedSnapshotDir(snapshot, rootDir);
    if (!fs.exists(dir)) {
      throw RekeyException.cannot(
          "Cannot %s: %s does not exist%s (list snapshots with `list_snapshots` in the HBase"
              + " shell; take one with `snapshot 'TABLE', '%s'`)",
          what, subject, where, snapshot);
    }
    return SnapshotManifest.open(conf, fs, dir, SnapshotDescriptionUtils.readSnapshotInfo(fs, dir));
  }
}

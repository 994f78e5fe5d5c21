package dev.rekey.jobs.backfill.plan;

import dev.rekey.common.Clusters;
import dev.rekey.jobs.backfill.BackfillOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormatImpl;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.SnapshotProtos.SnapshotRegionManifest;
import org.apache.hadoop.hbase.snapshot.SnapshotManifest;
import org.apache.hadoop.hbase.util.CommonFSUtils;

/**
 * Gathers a {@link BackfillPlan}'s inputs from the cluster (run layer): the source snapshot's
 * regions and store file sizes from its manifest, the target's live regions and family settings,
 * the bulk-load file limit and the read parallelism wanted. The decisions are {@link
 * BackfillPlan#of}'s.
 */
public final class PlanReader {
  private PlanReader() {}

  public static BackfillPlan plan(
      BackfillOptions o,
      Clusters clusters,
      RegionBoundaries live,
      TableDescriptor target,
      int defaultParallelism,
      long minSplitBytes)
      throws IOException {
    // the snapshot's regions from its own cluster's filesystem; the target's settings from its own
    Configuration hbaseConf = clusters.neu();
    List<BackfillPlan.SourceRegion> source =
        shardOf(o, sourceRegions(clusters.old(), o.sourceSnapshot()));
    List<BackfillPlan.TargetFamily> families = families(target);
    long maxFile = PlanReader.maxFileSize(target, hbaseConf);
    return BackfillPlan.of(
        new BackfillPlan.Inputs(
            o.sourceLayout(),
            o.targetLayout(),
            live,
            source,
            families,
            o.families(),
            o.versions(),
            o.splitsPerRegion(),
            o.sortAlways(),
            wantedReadTasks(
                defaultParallelism,
                source.stream().mapToLong(BackfillPlan.SourceRegion::bytes).sum(),
                minSplitBytes),
            hbaseConf.getInt(
                WritePath.MAX_FILES_PER_REGION_KEY, WritePath.DEFAULT_MAX_FILES_PER_REGION),
            maxFile,
            System.currentTimeMillis(),
            tiers(o, clusters, target, hbaseConf)));
  }

  /**
   * {@code --time-tiers} resolved against the target and the snapshot: the width (given, or the
   * written family's date-tiered window), the snapshot's cells' span within {@code --from/--to},
   * and the lower of the bulk-load file limit and the written families' write-blocking file count
   * ({@code hbase.hstore.blockingStoreFiles}: tiered files stay apart in the store, so loading more
   * than that would block the region's flushes — the dual writes — until compactions catch up).
   */
  static BackfillPlan.Tiers tiers(
      BackfillOptions o, Clusters clusters, TableDescriptor target, Configuration hbaseConf)
      throws IOException {
    TierRequest req = o.timeTiers();
    if (req == null) {
      return BackfillPlan.Tiers.NONE;
    }
    int limit =
        hbaseConf.getInt(
            WritePath.MAX_FILES_PER_REGION_KEY, WritePath.DEFAULT_MAX_FILES_PER_REGION);
    String limitName = WritePath.MAX_FILES_PER_REGION_KEY + "=" + limit;
    java.time.Duration width = null;
    String asked = null;
    for (ColumnFamilyDescriptor f : target.getColumnFamilies()) {
      if (!o.families().isEmpty() && !o.families().contains(f.getNameAsString())) {
        continue;
      }
      java.time.Duration w =
          req.resolve(
              target.getTableName().getNameAsString(), f.getNameAsString(), f.getConfiguration());
      if (width == null || w.compareTo(width) < 0) {
        width = w;
        asked = req.asked(w, f.getNameAsString());
      }
      String own = f.getConfigurationValue(HStore.BLOCKING_STOREFILES_KEY);
      if (own == null) {
        own = target.getValue(HStore.BLOCKING_STOREFILES_KEY);
      }
      int blocking =
          own != null
              ? Integer.parseInt(own.trim())
              : hbaseConf.getInt(
                  HStore.BLOCKING_STOREFILES_KEY, HStore.DEFAULT_BLOCKING_STOREFILE_COUNT);
      if (blocking < limit) {
        limit = blocking;
        limitName =
            String.format(
                "%s=%d of family %s",
                HStore.BLOCKING_STOREFILES_KEY, blocking, f.getNameAsString());
      }
    }
    if (width == null) {
      return BackfillPlan.Tiers.NONE; // no family written
    }
    long[] span = SnapshotTimeSpan.of(clusters.old(), o.sourceSnapshot());
    long min = Math.max(span[0], o.cellTime().from());
    long max =
        o.cellTime().to() == Long.MAX_VALUE ? span[1] : Math.min(span[1], o.cellTime().to() - 1);
    return new BackfillPlan.Tiers(width, asked, min, max, limit, limitName);
  }

  /** The regions of the options' shard ({@link Shard#regions}), or all of them without one. */
  static List<BackfillPlan.SourceRegion> shardOf(
      BackfillOptions o, List<BackfillPlan.SourceRegion> all) {
    if (o.shard() == null) {
      return all;
    }
    List<BackfillPlan.SourceRegion> out = new ArrayList<>();
    for (int i :
        o.shard()
            .regions(
                all.stream().map(BackfillPlan.SourceRegion::bytes).toList(), o.sourceSnapshot())) {
      out.add(all.get(i));
    }
    return out;
  }

  /** The snapshot's store-file bytes: what a campaign weighs to decide whether to shard it. */
  public static long snapshotBytes(Configuration conf, String snapshot) throws IOException {
    return sourceRegions(conf, snapshot).stream().mapToLong(BackfillPlan.SourceRegion::bytes).sum();
  }

  /** The snapshot's region count: no more shards than that. */
  public static int snapshotRegions(Configuration conf, String snapshot) throws IOException {
    return sourceRegions(conf, snapshot).size();
  }

  /** The target's families with what the plan needs of each: versions kept and TTL. */
  public static List<BackfillPlan.TargetFamily> families(TableDescriptor target) {
    List<BackfillPlan.TargetFamily> families = new ArrayList<>();
    for (ColumnFamilyDescriptor f : target.getColumnFamilies()) {
      families.add(
          new BackfillPlan.TargetFamily(
              f.getNameAsString(), f.getMaxVersions(), f.getTimeToLive()));
    }
    return families;
  }

  /** Where the target's HFiles roll: its own max file size, else the cluster's. */
  public static long maxFileSize(TableDescriptor target, Configuration hbaseConf) {
    return target.getMaxFileSize() > 0
        ? target.getMaxFileSize()
        : hbaseConf.getLong("hbase.hregion.max.filesize", 10L << 30);
  }

  /**
   * Read tasks wanted: two per core, but no more than one per {@code minSplitBytes} of store files.
   * Every task writes its own file into every target region it feeds, and each file costs the load
   * a round trip: a small source cut for the cores would turn 16 regions into 128 tiny loads.
   * {@code minSplitBytes <= 0} keeps two per core.
   */
  static int wantedReadTasks(int defaultParallelism, long sourceBytes, long minSplitBytes) {
    long perCore = 2L * Math.max(1, defaultParallelism);
    if (minSplitBytes <= 0) {
      return (int) perCore;
    }
    long bySize = Math.max(1, (sourceBytes + minSplitBytes - 1) / minSplitBytes);
    return (int) Math.min(perCore, bySize);
  }

  /**
   * The snapshot's regions in key order with their store files' size, as its manifest lists them
   * (split parents left out, as TableSnapshotInputFormat leaves them out).
   */
  static List<BackfillPlan.SourceRegion> sourceRegions(Configuration conf, String snapshot)
      throws IOException {
    Path rootDir = CommonFSUtils.getRootDir(conf);
    FileSystem fs = rootDir.getFileSystem(conf);
    SnapshotManifest manifest =
        TableSnapshotInputFormatImpl.getSnapshotManifest(conf, snapshot, rootDir, fs);
    List<RegionInfo> infos = new ArrayList<>();
    List<Long> sizes = new ArrayList<>();
    List<SnapshotRegionManifest> regions = manifest.getRegionManifests();
    for (SnapshotRegionManifest m : regions == null ? List.<SnapshotRegionManifest>of() : regions) {
      RegionInfo info = ProtobufUtil.toRegionInfo(m.getRegionInfo());
      if (info.isOffline() && (info.isSplit() || info.isSplitParent())) {
        continue;
      }
      long bytes = 0;
      for (SnapshotRegionManifest.FamilyFiles ff : m.getFamilyFilesList()) {
        for (SnapshotRegionManifest.StoreFile sf : ff.getStoreFilesList()) {
          bytes += sf.getFileSize();
        }
      }
      infos.add(info);
      sizes.add(bytes);
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < infos.size(); i++) {
      order.add(i);
    }
    order.sort((a, b) -> RegionInfo.COMPARATOR.compare(infos.get(a), infos.get(b)));
    List<BackfillPlan.SourceRegion> out = new ArrayList<>();
    for (int i : order) {
      out.add(
          new BackfillPlan.SourceRegion(
              infos.get(i).getStartKey(), infos.get(i).getEndKey(), sizes.get(i)));
    }
    return out;
  }
}

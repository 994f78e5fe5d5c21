package dev.rekey.jobs.backfill.plan;

import java.io.IOException;
import java.util.List;
import java.util.OptionalLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.io.HFileLink;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormatImpl;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.SnapshotProtos.SnapshotRegionManifest;
import org.apache.hadoop.hbase.snapshot.SnapshotManifest;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;

/**
 * The time span of a snapshot's cells (run layer), for {@code --time-tiers}: from each store file's
 * file info — no data block read — the earliest put ({@code EARLIEST_PUT_TS}) and the newest cell
 * ({@code TIMERANGE}'s max). The earliest put, not the TIMERANGE's min: HBase records a column or
 * family delete marker as reaching down to timestamp 0, which would stretch the span to 1970.
 */
final class SnapshotTimeSpan {
  private SnapshotTimeSpan() {}

  /** [min, max] over the snapshot's store files; max &lt; min when it has none. */
  static long[] of(Configuration conf, String snapshot) throws IOException {
    Path rootDir = CommonFSUtils.getRootDir(conf);
    FileSystem fs = rootDir.getFileSystem(conf);
    SnapshotManifest manifest =
        TableSnapshotInputFormatImpl.getSnapshotManifest(conf, snapshot, rootDir, fs);
    TableName table = manifest.getTableDescriptor().getTableName();
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    List<SnapshotRegionManifest> regions = manifest.getRegionManifests();
    for (SnapshotRegionManifest m : regions == null ? List.<SnapshotRegionManifest>of() : regions) {
      RegionInfo info = ProtobufUtil.toRegionInfo(m.getRegionInfo());
      for (SnapshotRegionManifest.FamilyFiles ff : m.getFamilyFilesList()) {
        String family = ff.getFamilyName().toStringUtf8();
        for (SnapshotRegionManifest.StoreFile sf : ff.getStoreFilesList()) {
          long[] span = fileSpan(conf, fs, table, info.getEncodedName(), family, sf.getName());
          if (span == null) {
            continue; // its cells go to the nearest tier (TimeTiers.tierOf)
          }
          min = Math.min(min, span[0]);
          max = Math.max(max, span[1]);
        }
      }
    }
    return new long[] {min, max};
  }

  /**
   * One store file's [earliest put, newest cell], null when it records none; a split daughter's
   * reference ({@code hfile.parentRegion}) is read in its parent, whose span holds the half's.
   */
  private static long[] fileSpan(
      Configuration conf, FileSystem fs, TableName table, String region, String family, String name)
      throws IOException {
    int dot = name.indexOf('.');
    if (dot > 0) {
      region = name.substring(dot + 1);
      name = name.substring(0, dot);
    }
    HFileLink link = HFileLink.build(conf, table, region, family, name);
    StoreFileInfo info =
        new StoreFileInfo(conf, fs, fs.getFileStatus(link.getAvailablePath(fs)), link);
    HStoreFile file = new HStoreFile(info, BloomType.NONE, CacheConfig.DISABLED);
    try {
      file.initReader(); // the trailer and file info only
      OptionalLong lo = file.getMinimumTimestamp();
      OptionalLong hi = file.getMaximumTimestamp();
      byte[] earliestPut = file.getMetadataValue(HStoreFile.EARLIEST_PUT_TS);
      if (hi.isEmpty()) {
        return null; // written without a TIMERANGE (a tool that records none)
      }
      // no put at all (only delete markers): its newest cell stands for it
      long from =
          earliestPut == null
              ? lo.orElse(hi.getAsLong())
              : Bytes.toLong(earliestPut) == Long.MAX_VALUE
                  ? hi.getAsLong()
                  : Bytes.toLong(earliestPut);
      return new long[] {Math.min(from, hi.getAsLong()), hi.getAsLong()};
    } finally {
      file.closeStoreFile(false);
    }
  }
}

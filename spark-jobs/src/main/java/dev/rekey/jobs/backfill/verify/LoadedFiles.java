package dev.rekey.jobs.backfill.verify;

import dev.rekey.jobs.backfill.staging.RegionEntry;
import dev.rekey.jobs.backfill.staging.Staging;
import dev.rekey.rowkey.Hex;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;

/**
 * Verification that costs files, not rows: every HFile the backfill loaded into a region must now
 * be a store file of the target table, with the same family, first and last key and cell count
 * (read from the files' trailers and indexes, never their data). This catches a load that lost or
 * deleted a file (HBASE-30501) without reading the table back. A region whose files were changed
 * since the load — split by the loader because the region split, or already compacted — cannot be
 * matched this way; it is checked cell by cell instead ({@link RegionVerification}).
 */
public final class LoadedFiles {
  /**
   * What identifies one HFile without reading its data: its keys and cell count, and the time its
   * writer stamped in its file info (the bulk-load time HFileOutputFormat2 and rekey's in-order
   * writer record, to the millisecond; 0 if absent), which tells the backfill's own file from
   * another run's file with the same keys and counts.
   */
  public record Fingerprint(
      String family, String firstKey, String lastKey, long cells, long writtenAt) {}

  /** Per region: verified by its files, or the reason it needs the cell-by-cell check. */
  public record Outcome(boolean matched, String reason) {}

  private LoadedFiles() {}

  static Fingerprint of(FileSystem fs, Path file, String family, Configuration conf)
      throws IOException {
    try (HFile.Reader r = HFile.createReader(fs, file, CacheConfig.DISABLED, true, conf)) {
      byte[] at = r.getHFileInfo().get(HStoreFile.BULKLOAD_TIME_KEY);
      return new Fingerprint(
          family,
          key(r.getFirstKey()),
          key(r.getLastKey()),
          r.getEntries(),
          at == null || at.length != Long.BYTES ? 0 : Bytes.toLong(at));
    }
  }

  private static String key(Optional<Cell> c) {
    return c.map(k -> Hex.of(PrivateCellUtil.getCellKeySerializedAsKeyValueKey(k))).orElse("");
  }

  /**
   * The fingerprints of the table's store files (plain HFiles only: references and links, as a
   * split leaves them, are skipped), read from the table's dir under the HBase root. Empty if that
   * dir cannot be read.
   */
  public static Optional<Set<Fingerprint>> inTable(Configuration conf, TableName table) {
    try {
      Path root = CommonFSUtils.getRootDir(conf);
      FileSystem fs = root.getFileSystem(conf);
      Path tableDir = CommonFSUtils.getTableDir(root, table);
      Set<Fingerprint> out = new HashSet<>();
      for (FileStatus region : fs.listStatus(tableDir)) {
        if (!region.isDirectory() || region.getPath().getName().startsWith(".")) {
          continue;
        }
        for (FileStatus family : fs.listStatus(region.getPath())) {
          String name = family.getPath().getName();
          if (!family.isDirectory() || name.startsWith(".") || name.equals("recovered.edits")) {
            continue;
          }
          for (FileStatus f : fs.listStatus(family.getPath())) {
            if (f.isFile() && StoreFileInfo.isHFile(f.getPath())) {
              out.add(of(fs, f.getPath(), name, conf));
            }
          }
        }
      }
      return Optional.of(out);
    } catch (IOException | RuntimeException e) {
      return Optional
          .empty(); // e.g. no permission to read the HBase root: the caller checks cells instead
    }
  }

  /**
   * Matches each region's kept HFiles (staging/regions/r-N/family/) against the table's store
   * files.
   */
  public static Map<Integer, Outcome> check(
      Staging staging, List<RegionEntry> regions, Set<Fingerprint> table, Configuration conf)
      throws IOException {
    Map<Integer, Outcome> out = new TreeMap<>();
    for (RegionEntry r : regions) {
      List<Fingerprint> ours = new ArrayList<>();
      Path dir = staging.region(r.index());
      if (staging.fs.exists(dir)) {
        for (FileStatus fam : staging.fs.listStatus(dir)) {
          for (FileStatus f : staging.fs.listStatus(fam.getPath())) {
            if (!f.getPath().getName().startsWith(".")) {
              ours.add(of(staging.fs, f.getPath(), fam.getPath().getName(), conf));
            }
          }
        }
      }
      out.put(r.index(), match(r, ours, table));
    }
    return out;
  }

  /** Pure: a region's files against the table's (unit-tested). */
  static Outcome match(RegionEntry r, List<Fingerprint> ours, Set<Fingerprint> table) {
    long cells = ours.stream().mapToLong(Fingerprint::cells).sum();
    if (ours.size() != r.files() || cells != r.cells()) {
      return new Outcome(
          false,
          String.format(
              "the staging dir holds %d files with %,d cells, the manifest %d with %,d",
              ours.size(), cells, r.files(), r.cells()));
    }
    long absent = ours.stream().filter(f -> !table.contains(f)).count();
    return absent == 0
        ? new Outcome(true, "all " + ours.size() + " HFiles are store files of the table")
        : new Outcome(
            false,
            String.format(
                "%d of its %d HFiles are not store files of the table as loaded",
                absent, ours.size()));
  }
}

package dev.rekey.read;

import dev.rekey.rowkey.KeyRange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormatImpl;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;

/**
 * Opens a snapshot split's store files for {@link StoreFileRows}: which families and files, whether
 * rekey's reader may read them at all ({@link #refusal}), which files the window skips, and the key
 * ranges to read.
 */
final class StoreFileSplits {
  private StoreFileSplits() {}

  /**
   * A split's files opened for reading, or why not ({@code refusal} set, nothing open).
   *
   * @param families the families with a file to read, in name order
   * @param storeFiles the files read and skipped by time range
   * @param ranges the key ranges to read, in key order
   */
  record Opened(
      List<FamilyFiles> families, StoreFiles storeFiles, List<KeyRange> ranges, String refusal) {}

  /**
   * Opens the split's store files; throws (with every file it opened closed again) when one cannot
   * be read: HBase's reader then opens them and names what is wrong.
   */
  static Opened open(TableSnapshotInputFormatImpl.InputSplit split, Configuration conf)
      throws IOException {
    Scan scan = TableMapReduceUtil.convertStringToScan(split.getScan());
    TableDescriptor htd = split.getHtd();
    RegionInfo region = split.getRegionInfo();
    Path restoreDir = new Path(split.getRestoreDir());
    FileSystem fs = restoreDir.getFileSystem(conf);
    Path regionDir =
        new Path(
            CommonFSUtils.getTableDir(restoreDir, htd.getTableName()), region.getEncodedName());
    List<ColumnFamilyDescriptor> read = new ArrayList<>();
    if (scan.getFamilyMap().isEmpty()) {
      read.addAll(List.of(htd.getColumnFamilies()));
    } else {
      for (byte[] f : scan.getFamilyMap().keySet()) {
        read.add(htd.getColumnFamily(f));
      }
    }
    read.sort(Comparator.comparing(ColumnFamilyDescriptor::getName, Bytes.BYTES_COMPARATOR));
    List<List<Path>> files = new ArrayList<>();
    for (ColumnFamilyDescriptor f : read) {
      files.add(f == null ? List.of() : listFamily(fs, new Path(regionDir, f.getNameAsString())));
    }
    Optional<String> refused = refusal(scan, read, files);
    if (refused.isPresent()) {
      return new Opened(List.of(), null, List.of(), refused.get());
    }
    long now = System.currentTimeMillis();
    boolean skipByTime = conf.getBoolean(StoreFiles.SKIP_BY_TIME, true);
    StoreFiles tally = StoreFiles.NONE;
    List<FamilyFiles> families = new ArrayList<>();
    List<HStoreFile> all = new ArrayList<>(); // closed here if the files cannot be read
    try {
      for (int i = 0; i < read.size(); i++) {
        ColumnFamilyDescriptor f = read.get(i);
        int ttl = f.getTimeToLive();
        ColumnVersions rules =
            new ColumnVersions(
                scan.getTimeRange().getMin(),
                scan.getTimeRange().getMax(),
                ttl == HConstants.FOREVER ? Long.MIN_VALUE : now - ttl * 1000L,
                Math.min(scan.getMaxVersions(), f.getMaxVersions()));
        List<HStoreFile> opened = new ArrayList<>();
        for (Path p : files.get(i)) {
          HStoreFile file =
              new HStoreFile(fs, p, conf, CacheConfig.DISABLED, f.getBloomFilterType(), true);
          all.add(file);
          file.initReader(); // its trailer and file info: the TIMERANGE, no data block yet
          long length = file.getReader().length();
          if (skipByTime
              && !StoreFiles.mayHold(file, scan.getTimeRange(), rules.oldestUnexpired())) {
            file.closeStoreFile(false);
            tally = tally.skippedOne(length);
            continue;
          }
          opened.add(file);
          tally = tally.readOne(length);
        }
        if (!opened.isEmpty()) { // else no file of this family can hold a cell of the window
          families.add(FamilyFiles.of(opened, rules));
        }
      }
    } catch (IOException | RuntimeException e) {
      families.forEach(FamilyFiles::close);
      for (HStoreFile f : all) {
        try {
          f.closeStoreFile(false); // a no-op for a file closed already
        } catch (IOException | RuntimeException closing) {
          e.addSuppressed(closing);
        }
      }
      throw e;
    }
    return new Opened(families, tally, ranges(scan), null);
  }

  /**
   * Why a split cannot be read from its store files (empty if it can): the scan asks for more than
   * whole families in key ranges, a family's rules need HBase's matcher, or a family holds a
   * reference to a parent region's file.
   */
  static Optional<String> refusal(
      Scan scan, List<ColumnFamilyDescriptor> families, List<List<Path>> files) {
    if (scan.isRaw() || scan.isReversed() || scan.getBatch() > 0 || scan.getLimit() > 0) {
      return Optional.of("a raw, reversed, batched or limited scan");
    }
    if (scan.getMaxResultsPerColumnFamily() >= 0 || scan.getRowOffsetPerColumnFamily() > 0) {
      return Optional.of("a per-family limit");
    }
    if (!scan.getColumnFamilyTimeRange().isEmpty()) {
      return Optional.of("a per-family time range");
    }
    if (!onlyKeyRanges(scan.getFilter())) {
      return Optional.of("a filter other than key ranges");
    }
    for (var e : scan.getFamilyMap().entrySet()) {
      if (e.getValue() != null && !e.getValue().isEmpty()) {
        return Optional.of("a column selection in family " + Bytes.toString(e.getKey()));
      }
    }
    for (int i = 0; i < families.size(); i++) {
      ColumnFamilyDescriptor f = families.get(i);
      if (f == null) {
        return Optional.of("a family the table does not have");
      }
      if (f.isMobEnabled() || f.isNewVersionBehavior()) {
        return Optional.of("family " + f.getNameAsString() + " is MOB or new-version-behavior");
      }
      if (f.getMinVersions() > 0 && f.getTimeToLive() != HConstants.FOREVER) {
        return Optional.of("family " + f.getNameAsString() + " keeps MIN_VERSIONS past its TTL");
      }
      if (files.get(i).stream().anyMatch(p -> StoreFileInfo.isReference(p))) {
        return Optional.of("family " + f.getNameAsString() + " references a parent region");
      }
    }
    return Optional.empty();
  }

  private static boolean onlyKeyRanges(Filter f) {
    if (f == null || f instanceof MultiRowRangeFilter) {
      return true;
    }
    if (f instanceof FilterList list && list.getOperator() == FilterList.Operator.MUST_PASS_ALL) {
      return list.getFilters().stream().allMatch(StoreFileSplits::onlyKeyRanges);
    }
    return false;
  }

  /** The store files (links, in a restored snapshot) of one family dir; none if it is absent. */
  private static List<Path> listFamily(FileSystem fs, Path familyDir) throws IOException {
    List<Path> out = new ArrayList<>();
    if (!fs.exists(familyDir)) {
      return out;
    }
    for (FileStatus st : fs.listStatus(familyDir)) {
      if (st.isFile() && !st.getPath().getName().startsWith(".")) {
        out.add(st.getPath());
      }
    }
    return out;
  }

  /** The split's key range, cut to the scan's key ranges if it has any, in key order. */
  private static List<KeyRange> ranges(Scan scan) {
    List<KeyRange> asked = KeyRangeSnapshotInputFormat.keyRanges(scan);
    KeyRange whole = new KeyRange(scan.getStartRow(), scan.getStopRow());
    if (asked == null) {
      return List.of(whole);
    }
    List<KeyRange> out = new ArrayList<>();
    for (KeyRange r : asked) {
      KeyRange c = ReadPlan.clip(r, scan.getStartRow(), scan.getStopRow());
      if (c != null) {
        out.add(c);
      }
    }
    out.sort((a, b) -> Bytes.compareTo(a.start(), b.start()));
    return out;
  }
}

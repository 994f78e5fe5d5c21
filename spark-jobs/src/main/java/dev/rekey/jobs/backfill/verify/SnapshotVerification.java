package dev.rekey.jobs.backfill.verify;

import dev.rekey.common.HBaseConfigs;
import dev.rekey.common.JobPhase;
import dev.rekey.jobs.backfill.staging.RegionEntry;
import dev.rekey.jobs.backfill.staging.Staging;
import dev.rekey.read.RegionReader;
import dev.rekey.read.TemporarySnapshot;
import dev.rekey.rowkey.Hex;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ClientSideRegionScanner;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.exceptions.DeserializationException;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.snapshot.RestoreSnapshotHelper;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * Runs the {@link RegionVerification}s as a Spark job against a snapshot of the target taken after
 * the load: a task per region merges the region's kept HFiles with the snapshot's row keys for that
 * key range, read in the task from the snapshot's files (ClientSideRegionScanner). Verification
 * thus loads no RegionServer and does not funnel every row through the driver; it sees the table as
 * it was after the load, dual writes included. The snapshot and its restore dir are removed
 * afterwards, also on failure.
 */
final class SnapshotVerification {
  private SnapshotVerification() {}

  /**
   * One region to check: its manifest index, write-time key range and staging dir of kept HFiles.
   */
  private record Task(int index, byte[] start, byte[] end, String regionDir)
      implements Serializable {}

  static Map<Integer, RegionVerification.Outcome> run(
      JavaSparkContext jsc,
      Admin admin,
      Configuration conf,
      TableName table,
      Staging staging,
      List<RegionEntry> regions)
      throws IOException {
    Map<Integer, RegionVerification.Outcome> out = new TreeMap<>();
    if (regions.isEmpty()) {
      return out;
    }
    Path rootDir = CommonFSUtils.getRootDir(conf);
    FileSystem fs = rootDir.getFileSystem(conf);
    Path restoreDir = null;
    try (TemporarySnapshot snapshot = TemporarySnapshot.take(admin, table, "verify")) {
      String name = snapshot.name();
      restoreDir = new Path(RegionReader.defaultRestoreRoot(fs), name);
      RestoreSnapshotHelper.RestoreMetaChanges meta =
          RestoreSnapshotHelper.copySnapshotForScanner(conf, fs, rootDir, restoreDir, name);
      byte[] htd = TableDescriptorBuilder.toByteArray(meta.getTableDescriptor());
      List<byte[]> snapshotRegions = new ArrayList<>();
      for (RegionInfo ri : meta.getRegionsToAdd()) {
        if (!(ri.isOffline()
            && (ri.isSplit() || ri.isSplitParent()))) { // split parents hold no rows of their own
          snapshotRegions.add(RegionInfo.toByteArray(ri));
        }
      }
      List<Task> tasks = new ArrayList<>();
      for (RegionEntry r : regions) {
        tasks.add(
            new Task(
                r.index(),
                Hex.parse(r.startHex()),
                Hex.parse(r.endHex()),
                staging.region(r.index()).toString()));
      }
      Map<String, String> confMap = HBaseConfigs.toMap(conf);
      String restore = restoreDir.toString();
      List<Tuple2<Integer, RegionVerification.Outcome>> results;
      try (JobPhase phase =
          JobPhase.start(
              jsc.sc(),
              "backfill: verify the cells of %s",
              JobPhase.count(tasks.size(), "region"))) {
        results =
            jsc.parallelize(tasks, tasks.size())
                .map(
                    t -> {
                      Configuration c = HBaseConfigs.fromMap(confMap);
                      Path dir = new Path(t.regionDir());
                      try (TableCells cells =
                          new TableCells(
                              c, new Path(restore), htd, snapshotRegions, t.start(), t.end())) {
                        return new Tuple2<>(
                            t.index(),
                            RegionVerification.check(
                                cells, cells::maxVersions, dir.getFileSystem(c), dir, c));
                      }
                    })
                .collect();
      }
      for (Tuple2<Integer, RegionVerification.Outcome> r : results) {
        out.put(r._1(), r._2());
      }
      return out;
    } finally {
      if (restoreDir != null) {
        fs.delete(restoreDir, true);
      }
    }
  }

  /**
   * The cells in [start, end) of the restored snapshot, every version, region by region in key
   * order (key-only reads: presence is checked by row, family, qualifier and timestamp).
   */
  private static final class TableCells implements Iterator<Cell>, AutoCloseable {
    private final Configuration conf;
    private final FileSystem fs;
    private final Path restoreDir;
    private final TableDescriptor htd;
    private final List<RegionInfo> regions = new ArrayList<>();
    private final byte[] start;
    private final byte[] end;
    private int next;
    private ClientSideRegionScanner scanner;
    private Cell[] row;
    private int inRow;
    private byte[] lastFamily;
    private int lastMaxVersions;

    TableCells(
        Configuration conf,
        Path restoreDir,
        byte[] htd,
        List<byte[]> regions,
        byte[] start,
        byte[] end)
        throws IOException {
      this.conf = conf;
      this.restoreDir = restoreDir;
      this.fs = restoreDir.getFileSystem(conf);
      try {
        this.htd = TableDescriptorBuilder.parseFrom(htd);
        for (byte[] r : regions) {
          RegionInfo ri = RegionInfo.parseFrom(r);
          if (overlaps(ri, start, end)) {
            this.regions.add(ri);
          }
        }
      } catch (DeserializationException e) {
        throw new IOException(e);
      }
      this.regions.sort((a, b) -> Bytes.compareTo(a.getStartKey(), b.getStartKey()));
      this.start = start;
      this.end = end;
    }

    private static boolean overlaps(RegionInfo ri, byte[] start, byte[] end) {
      boolean startsBeforeEnd = end.length == 0 || Bytes.compareTo(ri.getStartKey(), end) < 0;
      boolean endsAfterStart =
          ri.getEndKey().length == 0 || Bytes.compareTo(ri.getEndKey(), start) > 0;
      return startsBeforeEnd && endsAfterStart;
    }

    @Override
    public boolean hasNext() {
      try {
        while (row == null || inRow >= row.length) {
          if (scanner == null) {
            if (next >= regions.size()) {
              return false;
            }
            Scan scan =
                new Scan()
                    .withStartRow(start)
                    .withStopRow(end)
                    .setFilter(new KeyOnlyFilter())
                    .readAllVersions()
                    .setCacheBlocks(false);
            scanner =
                new ClientSideRegionScanner(
                    conf, fs, restoreDir, htd, regions.get(next++), scan, null);
          }
          Result r = scanner.next();
          if (r == null) {
            scanner.close();
            scanner = null;
          } else {
            row = r.rawCells();
            inRow = 0;
          }
        }
        return true;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public Cell next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return row[inRow++];
    }

    /**
     * The VERSIONS of a cell's family in the table: how many newer cells of a column hide an older
     * one.
     */
    int maxVersions(Cell c) {
      if (lastFamily == null || !CellUtil.matchingFamily(c, lastFamily)) {
        lastFamily = CellUtil.cloneFamily(c);
        ColumnFamilyDescriptor f = htd.getColumnFamily(lastFamily);
        lastMaxVersions = f == null ? Integer.MAX_VALUE : f.getMaxVersions();
      }
      return lastMaxVersions;
    }

    @Override
    public void close() {
      if (scanner != null) {
        scanner.close();
      }
    }
  }
}

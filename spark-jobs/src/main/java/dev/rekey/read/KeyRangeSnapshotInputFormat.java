package dev.rekey.read;

import dev.rekey.rowkey.KeyRange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HRegionInfo;
import org.apache.hadoop.hbase.client.ClientSideRegionScanner;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormat;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormatImpl;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * TableSnapshotInputFormat with k splits per region cut along the keys the region really holds.
 * HBase's own way (RegionSplitter.UniformSplit over the region's boundaries) takes an open start or
 * end as 0x00 or 0xFF..: for keys that lead with a timestamp, every row of a table's first and last
 * region falls into the first of its k splits, so a one-region legacy table — the hot-spotted table
 * a migration starts from — is read by one task whatever k is. Here an open boundary is replaced by
 * the region's first or last row (one row read from that end), and the range is cut into k with
 * {@link KeyRanges#cut}. The splits keep the job's scan (time range, families, filters) and
 * together cover the region's key range exactly once.
 */
public class KeyRangeSnapshotInputFormat extends TableSnapshotInputFormat {
  /** Splits per region (default 1: one split per region, as TableSnapshotInputFormat). */
  public static final String SPLITS_PER_REGION = "rekey.snapshot.splitsPerRegion";

  @Override
  public List<InputSplit> getSplits(JobContext job) throws IOException, InterruptedException {
    Configuration conf = job.getConfiguration();
    int k = conf.getInt(SPLITS_PER_REGION, 1);
    List<InputSplit> out = new ArrayList<>();
    // in key order (the manifest lists regions in no particular order): partition i then reads
    // keys before partition i + 1's, which a task reading several partitions in turn relies on
    List<TableSnapshotInputFormatImpl.InputSplit> regions =
        new ArrayList<>(TableSnapshotInputFormatImpl.getSplits(conf));
    regions.sort(
        Comparator.comparing(
            (TableSnapshotInputFormatImpl.InputSplit s) -> s.getRegionInfo(),
            org.apache.hadoop.hbase.client.RegionInfo.COMPARATOR));
    for (TableSnapshotInputFormatImpl.InputSplit s : regions) {
      List<KeyRange> ranges = keyRanges(TableMapReduceUtil.convertStringToScan(s.getScan()));
      if (ranges != null
          && !overlaps(ranges, s.getRegionInfo().getStartKey(), s.getRegionInfo().getEndKey())) {
        out.add(new NothingToRead(s)); // one task per region stays the rule; this one opens nothing
        continue;
      }
      if (k <= 1) {
        out.add(new TableSnapshotRegionSplit(s));
        continue;
      }
      for (TableSnapshotInputFormatImpl.InputSplit part : cut(s, k, conf)) {
        out.add(new TableSnapshotRegionSplit(part));
      }
    }
    return out;
  }

  /**
   * A region that holds none of the scan's key ranges: its task returns no rows without opening the
   * region (restoring a region's stores, indexes and blooms costs a few hundred ms, for nothing, on
   * every region a window misses).
   */
  public static class NothingToRead extends TableSnapshotRegionSplit {
    public NothingToRead() {}

    NothingToRead(TableSnapshotInputFormatImpl.InputSplit s) {
      super(s);
    }
  }

  @Override
  public RecordReader<ImmutableBytesWritable, Result> createRecordReader(
      InputSplit split, TaskAttemptContext context) throws IOException {
    if (split instanceof NothingToRead) {
      return new RecordReader<>() {
        @Override
        public void initialize(InputSplit s, TaskAttemptContext c) {}

        @Override
        public boolean nextKeyValue() {
          return false;
        }

        @Override
        public ImmutableBytesWritable getCurrentKey() {
          return null;
        }

        @Override
        public Result getCurrentValue() {
          return null;
        }

        @Override
        public float getProgress() {
          return 1f;
        }

        @Override
        public void close() {}
      };
    }
    Configuration conf = context.getConfiguration();
    if (split instanceof TableSnapshotRegionSplit trs
        && conf.getBoolean(StoreFileRows.ENABLED, true)) {
      TableSnapshotInputFormatImpl.InputSplit s = delegateOf(trs);
      return new OpenedOnFirstRow(
          new StoreFileRows(s, conf, from -> hbaseReader(s, from, context)));
    }
    return new OpenedOnFirstRow(super.createRecordReader(split, context));
  }

  /** HBase's own reader of a split, initialized, from {@code row} on (null: all of it). */
  private RecordReader<ImmutableBytesWritable, Result> hbaseReader(
      TableSnapshotInputFormatImpl.InputSplit s, byte[] row, TaskAttemptContext context)
      throws IOException, InterruptedException {
    TableSnapshotInputFormatImpl.InputSplit from = s;
    if (row != null) {
      Scan scan = TableMapReduceUtil.convertStringToScan(s.getScan());
      Scan rest = new Scan(scan).withStartRow(KeyRanges.max(scan.getStartRow(), row));
      from =
          new TableSnapshotInputFormatImpl.InputSplit(
              s.getHtd(),
              s.getRegionInfo(),
              Arrays.asList(s.getLocations()),
              rest,
              new Path(s.getRestoreDir()));
    }
    TableSnapshotRegionSplit split = new TableSnapshotRegionSplit(from);
    RecordReader<ImmutableBytesWritable, Result> r = super.createRecordReader(split, context);
    r.initialize(split, context);
    return r;
  }

  /**
   * The split's description (table, region, scan, restore dir), which TableSnapshotRegionSplit
   * keeps to itself: read back from its serialized form, the one Spark ships to the task.
   */
  static TableSnapshotInputFormatImpl.InputSplit delegateOf(TableSnapshotRegionSplit split)
      throws IOException {
    org.apache.hadoop.io.DataOutputBuffer out = new org.apache.hadoop.io.DataOutputBuffer();
    split.write(out);
    org.apache.hadoop.io.DataInputBuffer in = new org.apache.hadoop.io.DataInputBuffer();
    in.reset(out.getData(), out.getLength());
    TableSnapshotInputFormatImpl.InputSplit s = new TableSnapshotInputFormatImpl.InputSplit();
    s.readFields(in);
    return s;
  }

  /**
   * Opens the region on the first row asked for, not in {@code initialize}: Spark initializes the
   * reader before the task's row iterator exists, so a store file HBase refuses to open (e.g. a
   * cell with a negative timestamp) would escape the reader's one-line error for it ({@link
   * UnreadableRows}) and fail the task with HBase's message.
   */
  static final class OpenedOnFirstRow extends DeferredReader implements StreamsCells {
    private final RecordReader<ImmutableBytesWritable, Result> reader;

    OpenedOnFirstRow(RecordReader<ImmutableBytesWritable, Result> reader) {
      this.reader = reader;
    }

    @Override
    protected RecordReader<ImmutableBytesWritable, Result> current() {
      return reader;
    }

    @Override
    public boolean nextKeyValue() throws IOException, InterruptedException {
      open();
      return reader.nextKeyValue();
    }

    @Override
    public Streamed stream(CellSink sink, java.util.function.BooleanSupplier pause)
        throws IOException, InterruptedException {
      if (!(reader instanceof StreamsCells cells)) {
        return Streamed.AS_RESULTS;
      }
      open();
      return cells.stream(sink, pause);
    }

    @Override
    public long rowsStreamed() {
      return reader instanceof StreamsCells cells ? cells.rowsStreamed() : 0;
    }

    @Override
    public byte[] firstRowStreamed() {
      return reader instanceof StreamsCells cells ? cells.firstRowStreamed() : null;
    }

    @Override
    public StoreFiles storeFiles() {
      return split == null && reader instanceof StreamsCells cells ? cells.storeFiles() : null;
    }

    private void open() throws IOException, InterruptedException {
      if (split != null) {
        InputSplit s = split;
        split = null;
        reader.initialize(s, context);
      }
    }

    @Override
    public float getProgress() throws IOException, InterruptedException {
      return split != null ? 0f : reader.getProgress();
    }

    @Override
    public void close() throws IOException {
      if (split == null) {
        reader.close();
      }
    }
  }

  /**
   * The key ranges of the scan's MultiRowRangeFilter (alone or in a FilterList), or null if it has
   * none.
   */
  static List<KeyRange> keyRanges(Scan scan) {
    List<Filter> filters = new ArrayList<>();
    if (scan.getFilter() instanceof FilterList list) {
      filters.addAll(list.getFilters());
    } else if (scan.getFilter() != null) {
      filters.add(scan.getFilter());
    }
    for (Filter f : filters) {
      if (f instanceof MultiRowRangeFilter m) {
        List<KeyRange> out = new ArrayList<>();
        for (MultiRowRangeFilter.RowRange r : m.getRowRanges()) {
          out.add(new KeyRange(r.getStartRow(), r.getStopRow()));
        }
        return out;
      }
    }
    return null;
  }

  /** True if any range meets the region [start, end) (an empty end = no end). */
  static boolean overlaps(List<KeyRange> ranges, byte[] start, byte[] end) {
    for (KeyRange r : ranges) {
      if (ReadPlan.clip(r, start, end) != null) {
        return true;
      }
    }
    return false;
  }

  private static List<TableSnapshotInputFormatImpl.InputSplit> cut(
      TableSnapshotInputFormatImpl.InputSplit s, int k, Configuration conf) throws IOException {
    HRegionInfo region =
        s.getRegionInfo(); // the type TableSnapshotInputFormat's splits still carry
    Scan scan = TableMapReduceUtil.convertStringToScan(s.getScan());
    byte[] lo = region.getStartKey().length > 0 ? region.getStartKey() : edgeRow(s, false, conf);
    byte[] hi =
        region.getEndKey().length > 0 ? region.getEndKey() : afterLast(edgeRow(s, true, conf));
    byte[][] cuts = lo == null || hi == null ? null : KeyRanges.cut(lo, hi, k);
    if (cuts == null) {
      return List.of(s); // an empty region, or one row: nothing to cut
    }
    List<TableSnapshotInputFormatImpl.InputSplit> parts = new ArrayList<>(k);
    for (int i = 0; i < k; i++) {
      Scan part = new Scan(scan);
      // the first and last parts keep the job's own bounds: the parts cover exactly what the one
      // split covered
      part.withStartRow(i == 0 ? scan.getStartRow() : KeyRanges.max(scan.getStartRow(), cuts[i]));
      part.withStopRow(
          i == k - 1 ? scan.getStopRow() : KeyRanges.minStop(scan.getStopRow(), cuts[i + 1]));
      if (part.getStopRow().length > 0
          && Bytes.compareTo(part.getStartRow(), part.getStopRow()) >= 0) {
        continue; // the job's own scan range leaves nothing of this part
      }
      parts.add(
          new TableSnapshotInputFormatImpl.InputSplit(
              s.getHtd(),
              region,
              Arrays.asList(s.getLocations()),
              part,
              new Path(s.getRestoreDir())));
    }
    return parts.isEmpty() ? List.of(s) : parts;
  }

  /**
   * The region's first (or last) row key, read from the restored snapshot; null if the region is
   * empty.
   */
  private static byte[] edgeRow(
      TableSnapshotInputFormatImpl.InputSplit s, boolean last, Configuration conf)
      throws IOException {
    Path restoreDir = new Path(s.getRestoreDir());
    FileSystem fs = restoreDir.getFileSystem(conf);
    TableDescriptor htd = s.getHtd();
    Scan scan =
        new Scan().setFilter(new FirstKeyOnlyFilter()).setCacheBlocks(false).setReversed(last);
    try (ClientSideRegionScanner scanner =
        new ClientSideRegionScanner(conf, fs, restoreDir, htd, s.getRegionInfo(), scan, null)) {
      Result r = scanner.next();
      return r == null ? null : r.getRow();
    }
  }

  /**
   * The first row key of a restored snapshot (null if it holds no row): the regions in key order,
   * opened one at a time until one holds a row.
   */
  static byte[] firstRow(
      Configuration conf,
      TableDescriptor htd,
      List<? extends org.apache.hadoop.hbase.client.RegionInfo> regions,
      Path restoreDir)
      throws IOException {
    FileSystem fs = restoreDir.getFileSystem(conf);
    List<org.apache.hadoop.hbase.client.RegionInfo> sorted = new ArrayList<>(regions);
    sorted.sort(org.apache.hadoop.hbase.client.RegionInfo.COMPARATOR);
    for (org.apache.hadoop.hbase.client.RegionInfo region : sorted) {
      Scan scan = new Scan().setFilter(new FirstKeyOnlyFilter()).setCacheBlocks(false);
      try (ClientSideRegionScanner scanner =
          new ClientSideRegionScanner(conf, fs, restoreDir, htd, region, scan, null)) {
        Result r = scanner.next();
        if (r != null) {
          return r.getRow();
        }
      }
    }
    return null;
  }

  private static byte[] afterLast(byte[] row) {
    return row == null ? null : Arrays.copyOf(row, row.length + 1); // the smallest key after it
  }
}

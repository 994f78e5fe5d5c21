package dev.rekey.jobs.read;

import dev.rekey.rowkey.KeyRange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.ByteBufferExtendedCell;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormatImpl;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.KeyValueHeap;
import org.apache.hadoop.hbase.regionserver.KeyValueScanner;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.regionserver.StoreFileScanner;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * A snapshot region read straight from its store files, below HBase's region scanner, when there is
 * nothing for the region scanner to merge: each family holds one store file (a major-compacted or
 * freshly bulk-loaded region) of Put cells. Rows are assembled across families from HBase's own
 * store file scanners and filtered by HBase's rules for Puts ({@link ColumnVersions}: time range,
 * TTL, versions); the region scanner's merge heap, query matcher, delete tracker and per-row
 * request counters — twice the raw HFile pass's CPU on a 2M-row table (docs/benchmarks.md) — are
 * skipped.
 *
 * <p>HBase keeps the last word: at the first cell that is not a Put (a delete marker), a row over
 * {@code hbase.table.max.rowsize}, or any error reading the files, the rest of the split, from that
 * row on, is read by HBase's own snapshot reader ({@code fallback}) — a marker always sorts before
 * the cells it deletes in the merged order of a family's files, so the rows already returned are
 * final. Splits this reader cannot serve (a reference file of a split parent, MOB, a filter or
 * column selection other than key ranges, ...) are read by HBase's reader from the start. {@value
 * #ENABLED}=false turns it off.
 */
final class StoreFileRows extends RecordReader<ImmutableBytesWritable, Result>
    implements StreamsCells {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(StoreFileRows.class);

  /** Hadoop conf key: read eligible snapshot regions from their store files (default true). */
  static final String ENABLED = "rekey.snapshot.storeFileReader";

  /**
   * Rows this JVM's tasks read from store files, and splits handed (whole or from a row on) to
   * HBase's reader: diagnostics for a local-mode run (benchmarks, tests), never read by the jobs.
   */
  static final java.util.concurrent.atomic.LongAdder ROWS_FROM_FILES =
      new java.util.concurrent.atomic.LongAdder();

  static final java.util.concurrent.atomic.LongAdder HANDED_TO_HBASE =
      new java.util.concurrent.atomic.LongAdder();

  /** HBase's reader for the split, from a row on (null: the split as it is), initialized. */
  interface Fallback {
    RecordReader<ImmutableBytesWritable, Result> from(byte[] row)
        throws IOException, InterruptedException;
  }

  private final TableSnapshotInputFormatImpl.InputSplit split;
  private final Configuration conf;
  private final Fallback fallback;
  private RecordReader<ImmutableBytesWritable, Result> hbase;
  private final List<FamilyFiles> families = new ArrayList<>();
  private List<KeyRange> ranges;
  private int range = -1;
  private byte[] rangeStop;
  private long maxRowSize;
  private ImmutableBytesWritable key;
  private Result value;
  private long rowsFromFiles; // as Results; added to ROWS_FROM_FILES on close
  private long rowsStreamed; // streamed whole (ended); added to ROWS_FROM_FILES on close
  private byte[] firstStreamed;
  private Cell[] rowCells = new Cell[8]; // the row being assembled, reused across rows
  private boolean streamMore; // stream: the scanner is at a cell of range {@code range}
  private byte[][] keys = new byte[64][]; // stream: a reused key array per key length (few)
  // the files opened and skipped by time range; null when HBase's reader took the whole split
  private StoreFiles storeFiles = StoreFiles.NONE;
  private static final byte PUT = KeyValue.Type.Put.getCode();

  StoreFileRows(
      TableSnapshotInputFormatImpl.InputSplit split, Configuration conf, Fallback fallback) {
    this.split = split;
    this.conf = conf;
    this.fallback = fallback;
  }

  /**
   * One family's store files and its scan rules. Several files are merged by HBase's own heap
   * (newer file first among equal cells, as the region scanner merges them), built at the first
   * seek: the heap drops a scanner that has not been positioned yet. A single file (a
   * major-compacted or bulk-loaded family, the common case) is read by its HFile scanner directly:
   * nothing to merge, and a store-file scanner's MVCC and sequence-id handling per cell is moot at
   * a snapshot's read point.
   */
  private static final class FamilyFiles {
    final List<HStoreFile> files;
    final List<StoreFileScanner> scanners;
    final ColumnVersions rules;
    final HFileScanner single; // the one file's scanner, or null for several files
    KeyValueScanner merged;
    Cell cur; // single: the current cell, null before the first seek and at the file's end

    FamilyFiles(
        List<HStoreFile> files,
        List<StoreFileScanner> scanners,
        HFileScanner single,
        ColumnVersions rules) {
      this.files = files;
      this.scanners = scanners;
      this.single = single;
      this.rules = rules;
    }

    void seek(Cell first) throws IOException {
      if (single != null) {
        // forward: the ranges come in key order
        cur = StoreFileScanner.seekAtOrAfter(single, first) ? single.getCell() : null;
        return;
      }
      if (merged != null) {
        merged.seek(first); // forward: the ranges come in key order
        return;
      }
      for (StoreFileScanner s : scanners) {
        s.seek(first);
      }
      merged =
          scanners.size() == 1
              ? scanners.get(0)
              : new KeyValueHeap(scanners, CellComparator.getInstance());
    }

    Cell peek() {
      if (single != null) {
        return cur;
      }
      return merged == null ? null : merged.peek();
    }

    /** Moves past the current cell (there is one). */
    void next() throws IOException {
      if (single != null) {
        cur = single.next() ? single.getCell() : null;
        return;
      }
      merged.next();
    }

    void close() {
      if (single != null) {
        single.close();
      } else if (merged != null) {
        merged.close();
      } else {
        scanners.forEach(StoreFileScanner::close);
      }
      for (HStoreFile f : files) {
        try {
          f.closeStoreFile(false);
        } catch (IOException e) {
          // a read-only file of a restored snapshot: nothing to flush or lose
        }
      }
    }
  }

  @Override
  public void initialize(InputSplit s, TaskAttemptContext context)
      throws IOException, InterruptedException {
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
      files.add(storeFiles(fs, new Path(regionDir, f.getNameAsString())));
    }
    Optional<String> refused = refusal(scan, read, files);
    if (refused.isPresent()) {
      // in the executor's log: why this region is read the slower way
      LOG.info(
          "Region {} of {} is read by HBase's snapshot reader: {}",
          region.getEncodedName(),
          htd.getTableName(),
          refused.get());
      HANDED_TO_HBASE.increment();
      storeFiles = null;
      hbase = fallback.from(null);
      return;
    }
    long now = System.currentTimeMillis();
    boolean skipByTime = conf.getBoolean(StoreFiles.SKIP_BY_TIME, true);
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
        if (files.get(i).isEmpty()) {
          continue;
        }
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
            storeFiles = storeFiles.skippedOne(length);
            continue;
          }
          opened.add(file);
          storeFiles = storeFiles.readOne(length);
        }
        if (opened.isEmpty()) {
          continue; // no file of this family can hold a cell of the window
        }
        if (opened.size() == 1) {
          // one file: its HFile scanner, reading the file front to back (no positioned reads)
          HStoreFile only = opened.get(0);
          only.initReader();
          families.add(
              new FamilyFiles(
                  opened, List.of(), only.getReader().getScanner(false, false, false), rules));
          continue;
        }
        // HBase's own scanners, ordered by the files' sequence ids (it opens their readers)
        List<StoreFileScanner> scanners =
            StoreFileScanner.getScannersForStoreFiles(
                opened, false, false, false, false, Long.MAX_VALUE);
        families.add(new FamilyFiles(opened, scanners, null, rules));
      }
    } catch (IOException | RuntimeException e) {
      closeFiles();
      for (HStoreFile f : all) {
        try {
          f.closeStoreFile(false); // a no-op for a file closed already
        } catch (IOException | RuntimeException closing) {
          e.addSuppressed(closing);
        }
      }
      storeFiles = null;
      HANDED_TO_HBASE.increment();
      hbase = fallback.from(null); // HBase opens them and names what is wrong
      return;
    }
    ranges = ranges(scan);
    maxRowSize =
        conf.getLong(HConstants.TABLE_MAX_ROWSIZE_KEY, HConstants.TABLE_MAX_ROWSIZE_DEFAULT);
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
      return list.getFilters().stream().allMatch(StoreFileRows::onlyKeyRanges);
    }
    return false;
  }

  /** The store files (links, in a restored snapshot) of one family dir; none if it is absent. */
  private static List<Path> storeFiles(FileSystem fs, Path familyDir) throws IOException {
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

  @Override
  public boolean nextKeyValue() throws IOException, InterruptedException {
    if (hbase != null) {
      return hbase.nextKeyValue();
    }
    CellComparator cmp = CellComparator.getInstance();
    while (true) {
      if (range < 0 || endOfRange()) {
        if (++range >= ranges.size()) {
          return false;
        }
        rangeStop = ranges.get(range).stop(); // a copy: taken once per range, not per row
        Cell first = PrivateCellUtil.createFirstOnRow(ranges.get(range).start());
        try {
          for (FamilyFiles f : families) {
            f.seek(first);
          }
        } catch (IOException | RuntimeException e) {
          return fallBackAt(ranges.get(range).start());
        }
        continue;
      }
      int n = families.size();
      Cell lowest = families.get(0).peek();
      for (int i = 1; i < n; i++) {
        Cell c = families.get(i).peek();
        if (c != null && (lowest == null || cmp.compareRows(c, lowest) < 0)) {
          lowest = c;
        }
      }
      // the row's first cell stands for its key: the scanners' cells do not share buffers that a
      // later read overwrites (a block is read into a new buffer), so no copy of the key per row
      Cell rowCell = lowest;
      int kept = 0;
      long bytes = 0;
      try {
        for (int i = 0; i < n; i++) {
          FamilyFiles f = families.get(i);
          f.rules.newRow();
          for (Cell c = f.peek(); c != null && CellUtil.matchingRows(c, rowCell); c = f.peek()) {
            f.next();
            bytes += c.getSerializedSize();
            if (c.getTypeByte() != PUT || (maxRowSize > 0 && bytes > maxRowSize)) {
              return fallBackAt(CellUtil.cloneRow(rowCell));
            }
            if (f.rules.accept(c)) {
              if (kept == rowCells.length) {
                rowCells = Arrays.copyOf(rowCells, kept * 2);
              }
              rowCells[kept++] = c;
            }
          }
        }
      } catch (IOException | RuntimeException e) {
        return fallBackAt(CellUtil.cloneRow(rowCell));
      }
      if (kept > 0) {
        // the Result keeps the array it is given: a copy of the reused one, sized to the row
        value = Result.create(Arrays.copyOf(rowCells, kept));
        rowsFromFiles++;
        return true;
      }
    }
  }

  /** True when every family's scanner is past the current range (or at its files' end). */
  private boolean endOfRange() {
    byte[] stop = rangeStop;
    CellComparator cmp = CellComparator.getInstance();
    for (FamilyFiles f : families) {
      Cell c = f.peek();
      if (c != null && (stop.length == 0 || cmp.compareRows(c, stop, 0, stop.length) < 0)) {
        return false;
      }
    }
    return true;
  }

  /** HBase's reader takes the split over from {@code row} on. */
  private boolean fallBackAt(byte[] row) throws IOException, InterruptedException {
    handOver(row);
    return hbase.nextKeyValue();
  }

  private void handOver(byte[] row) throws IOException, InterruptedException {
    closeFiles();
    HANDED_TO_HBASE.increment();
    hbase = fallback.from(row);
  }

  /**
   * Streams a split of one family in one store file (the common case) straight from its HFile
   * scanner: each cell is checked as {@link #nextKeyValue} checks it and handed on, none kept, so
   * no cell object reaches the heap. At a cell HBase must judge (a delete marker), a row over the
   * size limit or a read error, the row so far is dropped and HBase's reader takes the split over
   * from that row. Other splits are read as Results. Resumable: a pause leaves the scanner at the
   * next row's first cell (or past its range's end), and the next call starts a row there.
   */
  @Override
  public Streamed stream(CellSink sink, java.util.function.BooleanSupplier pause)
      throws IOException, InterruptedException {
    if (hbase != null || families.size() != 1 || families.get(0).single == null) {
      return Streamed.AS_RESULTS;
    }
    FamilyFiles f = families.get(0);
    HFileScanner s = f.single;
    ColumnVersions rules = f.rules;
    byte[] stop = rangeStop;
    boolean more = streamMore; // the scanner is at a cell of the current range not handed on
    byte[] key = null; // the current row's key, null before the first row of this call
    boolean started = false; // the sink has the current row (a cell of it was returned)
    long bytes = 0;
    while (true) {
      if (!more) {
        if (started) {
          endStreamedRow(sink, key);
          started = false;
          if (pause.getAsBoolean()) {
            streamMore = false;
            return Streamed.PAUSED;
          }
        }
        if (++range >= ranges.size()) {
          return Streamed.DONE;
        }
        KeyRange r = ranges.get(range);
        stop = rangeStop = r.stop();
        key = null;
        try {
          more = StoreFileScanner.seekAtOrAfter(s, PrivateCellUtil.createFirstOnRow(r.start()));
        } catch (IOException | RuntimeException e) {
          handOver(r.start());
          return Streamed.AS_RESULTS;
        }
        continue;
      }
      // the cell goes to no method but the sink's: compared through its arrays (a block read
      // with the heap allocator, not copies), so that the JIT can keep it off the heap
      Cell c = s.getCell();
      byte[] rowArray = c.getRowArray();
      int rowOffset = c.getRowOffset();
      int n = c.getRowLength();
      if (key == null || !Bytes.equals(rowArray, rowOffset, n, key, 0, key.length)) {
        if (started) {
          endStreamedRow(sink, key);
          started = false;
          if (pause.getAsBoolean()) {
            streamMore = true; // at this row's first cell: the next call starts it
            return Streamed.PAUSED;
          }
        }
        if (stop.length > 0 && Bytes.compareTo(rowArray, rowOffset, n, stop, 0, stop.length) >= 0) {
          more = false; // the range is done
          continue;
        }
        if (n >= keys.length) {
          keys = Arrays.copyOf(keys, n + 1);
        }
        key = keys[n] != null ? keys[n] : (keys[n] = new byte[n]);
        System.arraycopy(rowArray, rowOffset, key, 0, n);
        rules.newRow();
        bytes = 0;
      }
      bytes += c.getSerializedSize();
      if (c.getTypeByte() != PUT || (maxRowSize > 0 && bytes > maxRowSize)) {
        return handOverMidRow(sink, started, key);
      }
      if (rules.accept(
          c.getQualifierArray(),
          c.getQualifierOffset(),
          c.getQualifierLength(),
          c.getTimestamp())) {
        if (!started) {
          sink.startRow(key);
          started = true;
        }
        sink.cell(c);
      }
      try {
        more = s.next();
      } catch (IOException | RuntimeException e) {
        return handOverMidRow(sink, started, key);
      }
    }
  }

  /** The sink's row ends: counted, its key kept if it is the first. */
  private void endStreamedRow(CellSink sink, byte[] key) {
    sink.endRow();
    if (rowsStreamed++ == 0) {
      firstStreamed = key.clone();
    }
  }

  @Override
  public StoreFiles storeFiles() {
    return storeFiles;
  }

  @Override
  public long rowsStreamed() {
    return rowsStreamed;
  }

  @Override
  public byte[] firstRowStreamed() {
    return firstStreamed;
  }

  private Streamed handOverMidRow(CellSink sink, boolean started, byte[] key)
      throws IOException, InterruptedException {
    if (started) {
      sink.dropRow();
    }
    handOver(key.clone());
    return Streamed.AS_RESULTS;
  }

  @Override
  public ImmutableBytesWritable getCurrentKey() throws IOException, InterruptedException {
    if (hbase != null) {
      return hbase.getCurrentKey();
    }
    if (value == null) {
      return null;
    }
    if (key == null) {
      // Spark's Hadoop RDD asks for every row's key and the jobs drop it: one key object, reused
      // (as Hadoop's readers reuse theirs), pointing at the row in its cell, no copy
      key = new ImmutableBytesWritable();
    }
    Cell first = value.rawCells()[0];
    if (first instanceof ByteBufferExtendedCell) {
      key.set(value.getRow());
    } else {
      key.set(first.getRowArray(), first.getRowOffset(), first.getRowLength());
    }
    return key;
  }

  @Override
  public Result getCurrentValue() throws IOException, InterruptedException {
    return hbase != null ? hbase.getCurrentValue() : value;
  }

  @Override
  public float getProgress() throws IOException, InterruptedException {
    if (hbase != null) {
      return hbase.getProgress();
    }
    return ranges == null || ranges.isEmpty() ? 0f : Math.max(0, range) / (float) ranges.size();
  }

  @Override
  public void close() throws IOException {
    // counted per reader, added once: a shared counter per row cost 12% of this reader's samples
    ROWS_FROM_FILES.add(rowsFromFiles + rowsStreamed);
    rowsFromFiles = 0;
    rowsStreamed = 0;
    closeFiles();
    if (hbase != null) {
      hbase.close();
    }
  }

  private void closeFiles() {
    families.forEach(FamilyFiles::close);
    families.clear();
  }
}

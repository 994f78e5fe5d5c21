package dev.rekey.read;

import dev.rekey.rowkey.KeyRange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ByteBufferExtendedCell;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormatImpl;
import org.apache.hadoop.hbase.regionserver.StoreFileScanner;
import org.apache.hadoop.hbase.util.Bytes;
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

  /**
   * The DEBUG line each reader logs at its close: the region, the rows it read from the store files
   * itself, and where HBase's reader took over ("none", or "from ROW on (why)").
   */
  static final String SPLIT_READ =
      "Region {}: {} rows read from its store files; HBase's reader: {}";

  /** Hadoop conf key: read eligible snapshot regions from their store files (default true). */
  static final String ENABLED = "rekey.snapshot.storeFileReader";

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
  private long rowsFromFiles; // as Results
  private long rowsStreamed; // streamed whole (ended)
  private String handedOver; // why HBase's reader took the split over (from where), or null
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

  @Override
  public void initialize(InputSplit s, TaskAttemptContext context)
      throws IOException, InterruptedException {
    StoreFileSplits.Opened opened;
    try {
      opened = StoreFileSplits.open(split, conf);
    } catch (IOException | RuntimeException e) {
      handOver(null, "its store files cannot be read here: " + e); // HBase names what is wrong
      return;
    }
    if (opened.refusal() != null) {
      handOver(null, opened.refusal());
      return;
    }
    families.addAll(opened.families());
    storeFiles = opened.storeFiles();
    ranges = opened.ranges();
    maxRowSize =
        conf.getLong(HConstants.TABLE_MAX_ROWSIZE_KEY, HConstants.TABLE_MAX_ROWSIZE_DEFAULT);
  }

  @Override
  public boolean nextKeyValue() throws IOException, InterruptedException {
    if (hbase != null) {
      return hbase.nextKeyValue();
    }
    while (true) {
      if (range < 0 || FamilyFiles.allPast(families, rangeStop)) {
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
          return fallBackAt(ranges.get(range).start(), e);
        }
        continue;
      }
      int n = families.size();
      // the row's first cell stands for its key: the scanners' cells do not share buffers that a
      // later read overwrites (a block is read into a new buffer), so no copy of the key per row
      Cell rowCell = FamilyFiles.lowestRow(families);
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
              return fallBackAt(CellUtil.cloneRow(rowCell), null);
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
        return fallBackAt(CellUtil.cloneRow(rowCell), e);
      }
      if (kept > 0) {
        // the Result keeps the array it is given: a copy of the reused one, sized to the row
        value = Result.create(Arrays.copyOf(rowCells, kept));
        rowsFromFiles++;
        return true;
      }
    }
  }

  /** HBase's reader takes the split over from {@code row} on. */
  private boolean fallBackAt(byte[] row, Exception error) throws IOException, InterruptedException {
    handOver(row, midSplit(error));
    return hbase.nextKeyValue();
  }

  /** Why a split is handed over mid-way: a read error, else a cell or row HBase must judge. */
  private static String midSplit(Exception error) {
    return error != null
        ? "a read error: " + error
        : "a cell that is not a Put (a delete marker) or a row over "
            + HConstants.TABLE_MAX_ROWSIZE_KEY;
  }

  /** HBase's reader takes the split over from {@code row} on (null: the whole split). */
  private void handOver(byte[] row, String why) throws IOException, InterruptedException {
    closeFiles();
    if (row == null) {
      storeFiles = null; // HBase's reader opens the files, and skips by time range on its own
      // in the executor's log: why this region is read the slower way
      LOG.info(
          "Region {} of {} is read by HBase's snapshot reader: {}",
          split.getRegionInfo().getEncodedName(),
          split.getHtd().getTableName(),
          why);
    }
    handedOver =
        String.format(
            "from %s on (%s)", row == null ? "its start" : Bytes.toStringBinary(row), why);
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
          handOver(r.start(), midSplit(e));
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
        return handOverMidRow(sink, started, key, null);
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
        return handOverMidRow(sink, started, key, e);
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

  private Streamed handOverMidRow(CellSink sink, boolean started, byte[] key, Exception error)
      throws IOException, InterruptedException {
    if (started) {
      sink.dropRow();
    }
    handOver(key.clone(), midSplit(error));
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
    if (rowsFromFiles + rowsStreamed > 0 || handedOver != null) {
      // the split's account, for whoever wants to know how a region was read (tests, benchmarks)
      LOG.debug(
          SPLIT_READ,
          split.getRegionInfo().getEncodedName(),
          rowsFromFiles + rowsStreamed,
          handedOver == null ? "none" : handedOver);
    }
    handedOver = null;
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

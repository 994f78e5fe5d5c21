package dev.rekey.read;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.regionserver.HStoreFile;

/**
 * What a snapshot region's read did with its store files ({@link StoreFileRows}): the files (and
 * their bytes) it read, and those it skipped because their time range cannot hold a cell of the
 * scan's window.
 *
 * @param read files opened for reading
 * @param bytesRead their length
 * @param skipped files not read: their TIMERANGE is outside the window (or all their cells have
 *     outlived the family's TTL)
 * @param bytesSkipped their length
 */
public record StoreFiles(int read, long bytesRead, int skipped, long bytesSkipped)
    implements Serializable {
  static final StoreFiles NONE = new StoreFiles(0, 0, 0, 0);

  /** Hadoop conf key: skip store files whose time range cannot hold the window (default true). */
  public static final String SKIP_BY_TIME = "rekey.snapshot.skipFilesByTime";

  /**
   * True if a scan with time range {@code window} may return a cell of {@code file} (its reader
   * initialized): HBase's own test, {@code StoreFileReader.passesTimerangeFilter} as {@code
   * StoreFileScanner.shouldUseScanner} applies it, on the file's TIMERANGE as HBase reads it from
   * the file info. A file without one (written by a tool that records none) may hold anything.
   *
   * <p>Delete markers are safe to skip with the file: a marker masks cells no newer than its own
   * timestamp, and HBase's {@code TimeRangeTracker} records a column or family marker (which masks
   * every older version) as reaching down to timestamp 0, so a file holding one is never outside a
   * window before it; a version marker masks one timestamp, its own, which is outside the window
   * when its file is.
   *
   * @param oldestUnexpired cells stamped before this have outlived the family's TTL (Long.MIN_VALUE
   *     without one)
   */
  static boolean mayHold(HStoreFile file, TimeRange window, long oldestUnexpired) {
    OptionalLong min = file.getMinimumTimestamp();
    OptionalLong max = file.getMaximumTimestamp();
    if (min.isEmpty() || max.isEmpty()) {
      return true;
    }
    return mayHold(min.getAsLong(), max.getAsLong(), window, oldestUnexpired);
  }

  /** {@link #mayHold(HStoreFile, TimeRange, long)} for a file's TIMERANGE [min, max]. */
  static boolean mayHold(long min, long max, TimeRange window, long oldestUnexpired) {
    TimeRange file;
    try {
      file = TimeRange.between(min, max);
    } catch (IllegalArgumentException e) {
      return true; // a range HBase would not write: read the file and let the rules judge
    }
    return file.includesTimeRange(window) && max >= oldestUnexpired;
  }

  StoreFiles plus(StoreFiles o) {
    return new StoreFiles(
        read + o.read, bytesRead + o.bytesRead, skipped + o.skipped, bytesSkipped + o.bytesSkipped);
  }

  StoreFiles readOne(long bytes) {
    return new StoreFiles(read + 1, bytesRead + bytes, skipped, bytesSkipped);
  }

  StoreFiles skippedOne(long bytes) {
    return new StoreFiles(read, bytesRead, skipped + 1, bytesSkipped + bytes);
  }

  /** As summary.json writes it (regionScans[].storeFiles). */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("read", read);
    m.put("bytesRead", bytesRead);
    m.put("skipped", skipped);
    m.put("bytesSkipped", bytesSkipped);
    return m;
  }
}

package dev.rekey.read;

import dev.rekey.common.RekeyException;
import dev.rekey.rowkey.KeyRange;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.TableInputFormat;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.mapreduce.Job;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.CollectionAccumulator;

/**
 * The one region-parallel read path of rekey: a live table ({@link LiveTableInputFormat}: HBase's
 * TableInputFormat, key ranges as start/stop rows, through the RegionServers) or a snapshot
 * (TableSnapshotInputFormat, straight from the snapshot's files: no RegionServer load), one Spark
 * partition per region (or k per region), a {@link Scan} with the time range and families, block
 * cache off, caching set.
 *
 * <p>Guards against the pitfalls seen on this stack: snapshot splits report length 0 and Spark
 * drops them unless {@code spark.hadoopRDD.ignoreEmptySplits=false} (0 rows, no error) — so the
 * partition count is checked against the region count; one row can arrive as several Results — so
 * consecutive Results of a row are merged.
 *
 * <p>{@link #open} opens a live table ({@link TableRegions}) or a snapshot ({@link
 * SnapshotRegions}), then builds the read the same way for both.
 */
public final class RegionReader implements Serializable {
  private static final long serialVersionUID = 1L;
  public static final String IGNORE_EMPTY_SPLITS = "spark.hadoopRDD.ignoreEmptySplits";

  /** Where TableSnapshotInputFormat.setInput restored the snapshot (its key; protected there). */
  static final String RESTORE_DIR_KEY = "hbase.TableSnapshotInputFormat.restore.dir";

  /**
   * Rows per scanner RPC unless a job says otherwise: 0, HBase's own setting ({@code
   * hbase.client.scanner.caching}; unless a site sets it, as many rows as fit in {@code
   * hbase.client.scanner.max.result.size}, 2 MB). Narrow rows then travel thousands to an RPC and
   * wide ones a few; a fixed 1,000 left a 6M-row live scan ~30% slower (docs/benchmarks.md). The
   * server still answers within its scanner time limit whatever the count.
   */
  public static final int DEFAULT_CACHING = 0;

  private final String table;
  private final String snapshot;
  private long fromInclusive = 0;
  private long toExclusive = Long.MAX_VALUE;
  private List<String> families = List.of();
  private int splitsPerRegion = 1;
  private int caching = DEFAULT_CACHING;
  private boolean keysOnly;
  private int versions = 1;
  private int minPartitions = 1;
  private String restoreRoot;
  private ReadPlan plan = ReadPlan.all();

  private RegionReader(String table, String snapshot) {
    this.table = table;
    this.snapshot = snapshot;
  }

  /** Reads a live table through its RegionServers. */
  public static RegionReader table(TableName table) {
    return new RegionReader(table.getNameAsString(), null);
  }

  /**
   * Reads a snapshot's files directly (restored as links into a temporary dir, removed on close).
   */
  public static RegionReader snapshot(String name) {
    return new RegionReader(null, name);
  }

  public RegionReader timeRange(long from, long to) {
    if (from >= to) {
      throw RekeyException.usage("Empty time range [%s, %s): --from must be before --to", from, to);
    }
    this.fromInclusive = from;
    this.toExclusive = to;
    return this;
  }

  public RegionReader families(List<String> names) {
    this.families = List.copyOf(names);
    return this;
  }

  public RegionReader splitsPerRegion(int k) {
    if (k < 1) {
      throw RekeyException.usage("--splits-per-region must be at least 1 (got " + k + ")");
    }
    this.splitsPerRegion = k;
    return this;
  }

  /** Rows per scanner RPC; 0 for HBase's own setting ({@link #DEFAULT_CACHING}). */
  public RegionReader caching(int rows) {
    if (rows < 0) {
      throw new IllegalArgumentException("caching must be 0 (HBase's) or more: " + rows);
    }
    this.caching = rows;
    return this;
  }

  /**
   * Versions per column to read: 1 (HBase's default, the newest) or more ({@link
   * Integer#MAX_VALUE}: all the source holds). A Scan reads one version unless told, and a snapshot
   * read takes the Scan as given: a copy or a check that reads the default sees only the newest
   * cell of each column.
   */
  public RegionReader versions(int n) {
    if (n < 1) {
      throw RekeyException.usage(
          "Cannot read %s: versions must be at least 1 (got %s)", describe(), n);
    }
    this.versions = n;
    return this;
  }

  /**
   * Snapshots only: cut regions into more splits (along their keys) until there are at least this
   * many partitions, so a source of a few large regions — a hot-spotted table — still keeps every
   * core busy. Live tables are read one split per region (times k), as their RegionServers serve
   * them.
   */
  public RegionReader minPartitions(int n) {
    this.minPartitions = Math.max(1, n);
    return this;
  }

  /**
   * For jobs that need only keys, cell counts and timestamps: a live table's RegionServers send
   * cells without their values (KeyOnlyFilter). A snapshot read gets the cells as they are: its
   * values are never copied out of the HFile blocks, so the filter would only add a wrapper per
   * cell (job time 9.25 s vs 9.75 s mean over four interleaved runs of the reconcile benchmark's
   * counts).
   */
  public RegionReader keysOnly() {
    this.keysOnly = true;
    return this;
  }

  /**
   * What to read: only the plan's key ranges (each region's task reads the ranges in its region, a
   * seek per range), or every key. A time range on the cells ({@link #timeRange}) is a separate,
   * cheaper filter: it skips cells, not blocks.
   */
  public RegionReader plan(ReadPlan p) {
    if (p.keyRanges() && p.ranges().isEmpty()) {
      throw RekeyException.usage(
          "Cannot read %s: %s leaves no key range to read", describe(), p.reason());
    }
    this.plan = p;
    return this;
  }

  public ReadPlan plan() {
    return plan;
  }

  int splitsPerRegion() {
    return splitsPerRegion;
  }

  List<String> families() {
    return families;
  }

  int minPartitions() {
    return minPartitions;
  }

  /**
   * Where snapshots are restored: a dir on the HBase root's filesystem, outside the root (default
   * /tmp there).
   */
  public RegionReader restoreRoot(String dir) {
    this.restoreRoot = dir;
    return this;
  }

  /**
   * Where rekey restores snapshots for reading by default: /tmp/rekey-restore on the HBase root's
   * filesystem.
   */
  public static Path defaultRestoreRoot(FileSystem hbaseRootFs) {
    return new Path(hbaseRootFs.getUri().toString(), "/tmp/rekey-restore");
  }

  /** "table T" or "snapshot S", for messages. */
  public String describe() {
    return table != null ? "table " + table : "snapshot " + snapshot;
  }

  public boolean isSnapshot() {
    return snapshot != null;
  }

  /** The scan of this reader's plan. */
  public Scan scan() {
    return scan(plan);
  }

  /** The scan every region's task runs: time range, families, versions, the plan's key ranges. */
  private Scan scan(ReadPlan p) {
    Scan scan = new Scan();
    scan.setCacheBlocks(false); // a full pass would evict the serving working set
    if (caching > 0) {
      scan.setCaching(caching);
    }
    if (versions == Integer.MAX_VALUE) {
      scan.readAllVersions();
    } else {
      scan.readVersions(versions);
    }
    try {
      scan.setTimeRange(fromInclusive, toExclusive);
    } catch (IOException e) {
      throw RekeyException.usage("Invalid time range: " + e.getMessage());
    }
    for (String f : families) {
      scan.addFamily(Bytes.toBytes(f));
    }
    List<Filter> filters = new ArrayList<>(2);
    if (p.keyRanges()) {
      // one filter for every region: it seeks each region's scanner to the next range's start
      // (skipping whole blocks) and ends it past the last one; a region's own boundaries keep it
      // to its part. Scan start/stop rows would instead drop the regions outside them from the
      // splits (one task per region is the rule).
      List<MultiRowRangeFilter.RowRange> ranges = new ArrayList<>();
      for (KeyRange r : p.ranges()) {
        ranges.add(new MultiRowRangeFilter.RowRange(r.start(), true, r.stop(), false));
      }
      filters.add(new MultiRowRangeFilter(ranges));
    }
    if (keysOnly && snapshot == null) {
      filters.add(new KeyOnlyFilter());
    }
    if (filters.size() == 1) {
      scan.setFilter(filters.get(0));
    } else if (filters.size() > 1) {
      scan.setFilter(new FilterList(FilterList.Operator.MUST_PASS_ALL, filters));
    }
    return scan;
  }

  /**
   * Checks the source and its families exist and builds the RDD. Close the returned read to remove
   * the snapshot's restore dir.
   */
  public RegionRead open(JavaSparkContext jsc, Configuration hbaseConf) {
    Configuration conf = new Configuration(hbaseConf);
    Path restoreDir = null;
    try {
      Job job = Job.getInstance(conf);
      OpenedSource source;
      if (snapshot != null) {
        Path rootDir = CommonFSUtils.getRootDir(conf);
        FileSystem fs = rootDir.getFileSystem(conf);
        Path base = restoreRoot != null ? new Path(restoreRoot) : defaultRestoreRoot(fs);
        restoreDir = new Path(base, snapshot + "-" + UUID.randomUUID());
        source = new SnapshotRegions(this, snapshot).open(jsc, job, rootDir, fs, restoreDir);
      } else {
        source = new TableRegions(this, table).open(conf, job.getConfiguration());
      }
      job.getConfiguration()
          .set(TableInputFormat.SCAN, TableMapReduceUtil.convertScanToString(scan(source.plan())));
      return read(jsc, job, conf, source, restoreDir);
    } catch (IOException | RuntimeException e) {
      // a read that fails to open leaves no restore dir behind: nothing else would remove it
      removeQuietly(restoreDir, conf, e);
      RekeyException unreadable = UnreadableRows.named(e, describe(), snapshot != null);
      if (unreadable != null) {
        throw unreadable;
      }
      throw e instanceof RuntimeException r
          ? r
          : RekeyException.cannot(e, "Cannot read %s: %s", describe(), e.getMessage());
    }
  }

  /** The opened source's rows as a region read: splits planned once, rows counted per region. */
  private RegionRead read(
      JavaSparkContext jsc, Job job, Configuration conf, OpenedSource source, Path restoreDir)
      throws IOException {
    Configuration jobConf = job.getConfiguration();
    @SuppressWarnings("unchecked")
    Class<? extends org.apache.hadoop.mapreduce.InputFormat<ImmutableBytesWritable, Result>>
        format =
            (Class<
                    ? extends
                        org.apache.hadoop.mapreduce.InputFormat<ImmutableBytesWritable, Result>>)
                (Class<?>)
                    (snapshot != null
                        ? KeyRangeSnapshotInputFormat.class
                        : LiveTableInputFormat.class);
    CollectionAccumulator<RegionScan.PartitionCount> counts =
        jsc.sc().collectionAccumulator("rekey.rowsScanned");
    String describe = describe();
    boolean fromSnapshot = snapshot != null;
    int regions = source.bounds().size();
    // the jobs' read: the splits planned once, here (fewer than one per region is refused)
    RegionFolds folds = new RegionFolds(job, format, describe, fromSnapshot, counts, regions);
    int perRegion = splitsPerRegion;
    // Results for code of one's own, through Spark's Hadoop RDD: built (and planned again) when
    // asked for
    java.util.function.Supplier<JavaRDD<Result>> rows =
        () -> {
          JavaRDD<Result> raw =
              jsc.newAPIHadoopRDD(jobConf, format, ImmutableBytesWritable.class, Result.class)
                  .values();
          JavaRDD<Result> whole =
              raw.mapPartitionsWithIndex(
                  (i, it) ->
                      new CountedRows(
                          i,
                          WholeRows.merge(new UnreadableRows(it, describe, fromSnapshot)),
                          counts),
                  true);
          // fewer partitions than regions is a loss (e.g. Spark dropping a snapshot's zero-length
          // splits)
          if (whole.getNumPartitions() < regions) {
            throw RekeyException.cannot(
                "Cannot read %s: Spark planned %s partitions for %s regions x %s splits"
                    + " (at least one per region). Check %s=false and that no region is"
                    + " offline.",
                describe, whole.getNumPartitions(), regions, perRegion, IGNORE_EMPTY_SPLITS);
          }
          return whole;
        };
    List<byte[][]> bounds = new ArrayList<>(source.bounds());
    bounds.sort(Comparator.comparing((byte[][] b) -> b[0], java.util.Arrays::compareUnsigned));
    return new RegionRead(
        rows,
        regions,
        folds.splitCount(),
        restoreDir,
        conf,
        describeRead(),
        source.plan(),
        bounds.stream().map(b -> b[0]).toList(),
        bounds.stream().map(b -> b[1]).toList(),
        counts,
        folds,
        jsc);
  }

  private static void removeQuietly(Path dir, Configuration conf, Exception failure) {
    if (dir == null) {
      return;
    }
    try {
      dir.getFileSystem(conf).delete(dir, true);
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }

  /**
   * What the read loads, for the job's output: a live table's reads are served by its
   * RegionServers.
   */
  private String describeRead() {
    return snapshot != null
        ? "snapshot " + snapshot + ": its files, read directly (no RegionServer load)"
        : "live table "
            + table
            + " through its RegionServers (the read loads them; --via-snapshot or --snapshot "
            + "reads files instead)";
  }
}

package dev.rekey.jobs.analyze;

import dev.rekey.jobs.common.ReadPlan;
import dev.rekey.jobs.common.RegionRead;
import dev.rekey.jobs.common.RegionReader;
import dev.rekey.jobs.common.RegionScan;
import dev.rekey.jobs.common.RekeyException;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The analyze action: the live table's regions and RegionServer counters (read first, so analyze's
 * own scan does not count), then every row read region-parallel through {@link RegionReader} (table
 * or snapshot) into exact rows per region and a uniform key sample, then the pure statistics
 * ({@link Analyzer}) and an optional simulation of a proposed layout and split points. With a time
 * window, only the rows of that window are read, through the same {@link ReadPlan} pruning as scan.
 */
public final class Analyze {
  public static final int DEFAULT_SAMPLE = 100_000;

  private final TableName table;
  private final String snapshot;
  private KeyLayout layout;
  private int sample = DEFAULT_SAMPLE;
  private Integer servers;
  private KeyLayout layout2;
  private String splits;
  private long from = Long.MIN_VALUE;
  private long to = Long.MAX_VALUE;

  private Analyze(TableName table, String snapshot) {
    this.table = table;
    this.snapshot = snapshot;
  }

  public static Analyze table(TableName t) {
    return new Analyze(t, null);
  }

  public static Analyze snapshot(String s) {
    return new Analyze(null, s);
  }

  /** The layout of the keys (optional: enables salt tail placement and rekeyed simulation). */
  public Analyze layout(KeyLayout l) {
    this.layout = l;
    return this;
  }

  public Analyze sample(int n) {
    if (n < 100) {
      throw RekeyException.usage("--sample must be at least 100 rows, got " + n);
    }
    this.sample = n;
    return this;
  }

  /** The RegionServers the new table will have (bucket count advice); default: the live ones. */
  public Analyze servers(Integer s) {
    if (s != null && s < 1) {
      throw RekeyException.usage("--servers must be >= 1, got " + s);
    }
    this.servers = s;
    return this;
  }

  /**
   * Simulate a proposed layout (null = the keys as they are) with split points (SplitSpec syntax).
   */
  public Analyze simulate(KeyLayout proposed, String splitSpec) {
    this.layout2 = proposed;
    this.splits = splitSpec;
    return this;
  }

  /**
   * Analyze only the rows of [from, to) (epoch millis): per region, the key ranges that hold the
   * window when the layout's time field follows the prefix; otherwise every key, the window a time
   * range on the cells. Cells outside the window are never read, as in scan.
   */
  public Analyze window(long fromInclusive, long toExclusive) {
    if (fromInclusive >= toExclusive) {
      throw RekeyException.usage(
          "Cannot analyze "
              + describe()
              + ": empty window ["
              + Instant.ofEpochMilli(fromInclusive)
              + ", "
              + Instant.ofEpochMilli(toExclusive)
              + "): --from must be before --to");
    }
    this.from = fromInclusive;
    this.to = toExclusive;
    return this;
  }

  private boolean windowed() {
    return from != Long.MIN_VALUE || to != Long.MAX_VALUE;
  }

  /**
   * How a window limits the read (pure): the layout's key ranges when its time field is in key
   * order, else a cell time range; every key without a window.
   */
  static ReadPlan readPlan(KeyLayout layout, long from, long to, boolean windowed) {
    if (!windowed) {
      return ReadPlan.all();
    }
    if (layout == null) {
      return ReadPlan.cellTime("no --layout, so the keys' time field is unknown");
    }
    return ReadPlan.window(layout, from, to);
  }

  private String windowText() {
    return windowed()
        ? "["
            + (from == Long.MIN_VALUE ? "-inf" : Instant.ofEpochMilli(from).toString())
            + ", "
            + (to == Long.MAX_VALUE ? "+inf" : Instant.ofEpochMilli(to).toString())
            + ")"
        : "all time";
  }

  private String describe() {
    return table != null ? "table " + table : "snapshot " + snapshot;
  }

  public AnalyzeResult execute(SparkSession spark, Configuration hbaseConf) {
    long t0 = System.nanoTime();
    if (layout2 != null && splits == null) {
      throw RekeyException.usage(
          "Cannot analyze "
              + describe()
              + ": --layout2 needs --splits (hex:N, uniform:N, "
              + "natural[:N] or a split file)");
    }
    SplitSpec spec = null;
    if (splits != null) {
      try {
        spec = SplitSpec.parse(splits, layout2 != null ? layout2 : layout);
      } catch (IllegalArgumentException e) {
        throw RekeyException.usage("Cannot analyze " + describe() + ": " + e.getMessage());
      }
      if (layout2 != null && layout == null) {
        throw RekeyException.usage(
            "Cannot analyze "
                + describe()
                + ": simulating --layout2 "
                + layout2.name()
                + " needs the current layout (--layout) to decode the sampled keys");
      }
    }
    TableName live;
    ClusterRegions.View view;
    try (Connection conn = ConnectionFactory.createConnection(hbaseConf);
        Admin admin = conn.getAdmin()) {
      live = table != null ? table : sourceOf(admin, snapshot);
      if (!admin.tableExists(live)) {
        throw new RekeyException(
            "Cannot analyze "
                + describe()
                + ": table "
                + live
                + " does not exist (list tables "
                + "with `list` in the HBase shell, or check --hbase-site points at the right cluster)");
      }
      view = ClusterRegions.read(conn, admin, live);
    } catch (IOException e) {
      throw new RekeyException("Cannot analyze " + describe() + ": " + e.getMessage(), e);
    }

    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    RegionReader reader =
        table != null ? RegionReader.table(table) : RegionReader.snapshot(snapshot);
    if (windowed()) {
      // as scan: cells outside the window are never read, and the key ranges (when the layout has
      // them) keep each region's task to the part of its keys that can hold the window
      reader.timeRange(Math.max(0, from), to).plan(readPlan(layout, Math.max(0, from), to, true));
    }
    ArrayList<byte[]> starts = new ArrayList<>(view.startKeys());
    int regions = starts.size();
    int capacity = sample;
    List<PartitionSample> parts;
    AnalyzeRead how;
    try (RegionRead read = reader.open(jsc, hbaseConf)) {
      parts =
          read.rows()
              .mapPartitionsWithIndex(
                  (idx, it) -> {
                    PartitionSample p = new PartitionSample(regions, capacity, 0x5eedL + idx);
                    while (it.hasNext()) {
                      Result r = it.next();
                      long ts = Long.MIN_VALUE;
                      for (Cell c : r.rawCells()) {
                        ts = Math.max(ts, c.getTimestamp());
                      }
                      byte[] key = r.getRow();
                      p.add(new KeySample(key, ts), KeyStats.regionOf(starts, key));
                    }
                    return Collections.singletonList(p).iterator();
                  },
                  true)
              .collect();
      List<RegionScan> scans = read.regionScans();
      how =
          new AnalyzeRead(
              read.reading(),
              windowText(),
              read.plan().describe(),
              scans.stream().mapToLong(RegionScan::rowsScanned).sum(),
              scans.stream().map(RegionScan::toMap).toList());
    }
    long rowsRead = parts.stream().mapToLong(PartitionSample::rows).sum();
    long[] perRegion = new long[regions];
    for (PartitionSample p : parts) {
      for (int i = 0; i < regions; i++) {
        perRegion[i] += p.rowsPerRegion()[i];
      }
    }
    List<RegionStat> regionStats = new ArrayList<>();
    for (RegionStat r : view.regions()) {
      regionStats.add(r.withRows(perRegion[r.index()]));
    }
    List<KeySample> samples = PartitionSample.combine(parts, sample);
    Simulation sim = null;
    if (spec != null) {
      List<byte[]> keys = new ArrayList<>(samples.size());
      samples.forEach(s -> keys.add(s.key()));
      sim = Simulator.simulate(layout2 != null ? layout : null, layout2, spec, keys, rowsRead);
    }
    return Analyzer.assemble(
            reader.describe(),
            live.getNameAsString(),
            layout,
            rowsRead,
            samples,
            regionStats,
            view.servers(),
            view.liveServers(),
            servers,
            sim,
            (System.nanoTime() - t0) / 1e9)
        .withRead(how);
  }

  private static TableName sourceOf(Admin admin, String snapshot) throws IOException {
    for (SnapshotDescription s : admin.listSnapshots()) {
      if (s.getName().equals(snapshot)) {
        return s.getTableName();
      }
    }
    throw new RekeyException(
        "Cannot analyze snapshot "
            + snapshot
            + ": it does not exist (list snapshots with "
            + "`list_snapshots` in the HBase shell; take one with `snapshot 'TABLE', '"
            + snapshot
            + "'`)");
  }
}

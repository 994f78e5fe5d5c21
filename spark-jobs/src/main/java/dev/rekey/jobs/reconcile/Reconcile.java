package dev.rekey.jobs.reconcile;

import dev.rekey.common.Clusters;
import dev.rekey.common.Job;
import dev.rekey.common.JobPhase;
import dev.rekey.common.OutputDir;
import dev.rekey.common.OutputReach;
import dev.rekey.common.RekeyException;
import dev.rekey.read.RegionRead;
import dev.rekey.read.RegionReader;
import dev.rekey.read.TemporarySnapshot;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * The reconcile action: compares an old and a new table (or snapshots) per time bucket by natural
 * key, across a key change. {@code new Reconcile(spark, hbaseConf, options).execute(progress)} —
 * the CLI, tests and benchmarks call exactly this.
 *
 * <p>Pass 1 reads both sides region-parallel at once (one Spark job over the union of their
 * partitions) and tallies rows, cells and (with --digest) summed row digests per bucket inside each
 * partition; only the small tallies are shuffled. Without --digest it reads keys only (no values)
 * and skips the natural key. Pass 2 runs only when some bucket mismatches: it reads both sides
 * again, whole (no caching, so a matching run pays for one read), keeps the rows of the mismatched
 * buckets, joins them by natural key (the compare repair uses, read-only) and samples the keys that
 * differ. With {@code viaSnapshot}, live tables are snapshotted first and both passes read those
 * snapshots' files; the snapshots are deleted at the end, also on failure. How a side is read is
 * {@link SideReads}; pass 2 is {@link DrillPass}.
 */
public final class Reconcile implements Job<ReconcileResult> {
  private final SparkSession spark;
  private final Clusters clusters;
  private final ReconcileOptions given;

  /** The options of the run under way: {@link #given}, with the range taken from the data. */
  private ReconcileOptions options;

  private Consumer<String> progress = s -> {};

  /** Live sides read from a snapshot taken for this run (--via-snapshot): the snapshot's name. */
  private final Map<SideSpec, String> via = new HashMap<>();

  /** Both sides on one cluster. */
  public Reconcile(SparkSession spark, Configuration hbaseConf, ReconcileOptions options) {
    this(spark, Clusters.one(hbaseConf), options);
  }

  /** The old side read from {@code clusters.old()}, the new side from {@code clusters.neu()}. */
  public Reconcile(SparkSession spark, Clusters clusters, ReconcileOptions options) {
    this.spark = spark;
    this.clusters = clusters;
    this.given = options;
  }

  /**
   * Compares the sides; writes reconcile.json and reconcile.html when the options name an out dir
   * (the CLI prints where, after the result).
   */
  @Override
  public ReconcileResult execute(Consumer<String> progress) {
    this.progress = progress;
    long t0 = System.nanoTime();
    // where the report goes is resolved before the read: a bad --out fails now, not after it
    OutputDir out = given.out() == null ? null : OutputDir.of(given.out(), spark.sparkContext());
    if (out != null) {
      OutputReach.check(spark.sparkContext(), "--out", out, false);
    }
    options = given;
    ReconcileResult result;
    try {
      result = execute(t0);
    } finally {
      options = given; // a range taken from the data belongs to that run only
    }
    if (out != null) {
      ReconcileReport.write(result, out);
    }
    return result;
  }

  private ReconcileResult execute(long t0) {
    new SideSnapshots(clusters, progress).sweepLeftovers(options);
    if (!SideSnapshots.readsViaSnapshot(options.old())
        && !SideSnapshots.readsViaSnapshot(options.neu())) {
      return compare(t0);
    }
    // one connection when both sides are on one cluster (a ZooKeeper session each costs)
    try (Connection oldConn = ConnectionFactory.createConnection(clusters.old());
        Admin oldAdmin = oldConn.getAdmin();
        Connection newConn =
            clusters.separate() ? ConnectionFactory.createConnection(clusters.neu()) : null;
        Admin newAdmin = newConn != null ? newConn.getAdmin() : oldConn.getAdmin();
        TemporarySnapshot oldSnap = SideSnapshots.take(oldAdmin, options.old());
        TemporarySnapshot newSnap = SideSnapshots.take(newAdmin, options.neu())) {
      if (oldSnap != null) {
        via.put(options.old(), oldSnap.name());
      }
      if (newSnap != null) {
        via.put(options.neu(), newSnap.name());
      }
      return compare(t0);
    } catch (IOException e) {
      throw new RekeyException("Cannot reconcile via snapshots: " + e.getMessage(), e);
    } finally {
      via.clear();
    }
  }

  private ReconcileResult compare(long t0) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    // each side read with its own cluster's configuration (copies: a read sets its job's keys)
    Configuration oldConf = new Configuration(clusters.old());
    Configuration newConf = new Configuration(clusters.neu());
    boolean rangeFromData = options.rangeFromData();
    if (rangeFromData) {
      options = options.withBuckets(rangeOfData(jsc, oldConf, newConf));
    }
    TimeBuckets buckets = options.buckets();
    RowClassifier oldC = classifier(options.old().layout());
    RowClassifier newC = classifier(options.neu().layout());
    try (RegionRead oldRead = reader(options.old()).open(jsc, oldConf);
        RegionRead newRead = reader(options.neu()).open(jsc, newConf)) {
      int n = buckets.count();
      progress.accept(
          "  comparing "
              + options.old().describe()
              + " and "
              + options.neu().describe()
              + " in "
              + n
              + " buckets");
      JavaPairRDD<String, SideTally> oldT = tally(oldRead, oldC, n, "old");
      JavaPairRDD<String, SideTally> newT = tally(newRead, newC, n, "new");
      Map<String, SideTally> tallies;
      try (JobPhase phase =
          JobPhase.start(
              jsc.sc(),
              "reconcile: %s %s of both sides",
              options.digest() ? "count and digest" : "count",
              JobPhase.count(n, "bucket"))) {
        tallies = oldT.union(newT).reduceByKey(SideTally::merge, 1).collectAsMap();
      }
      SideTally old = tallies.getOrDefault("old", new SideTally(n));
      SideTally neu = tallies.getOrDefault("new", new SideTally(n));
      failOnUndecodable(options.old(), old, oldRead, oldC);
      failOnUndecodable(options.neu(), neu, newRead, newC);

      List<TimeBucketComparison> comparisons = new ArrayList<>(n);
      Set<Integer> mismatched = new HashSet<>();
      for (int i = 0; i < n; i++) {
        TimeBucketComparison c =
            TimeBucketComparison.of(buckets, i, old.bucket(i), neu.bucket(i), options.digest());
        comparisons.add(c);
        if (!c.matches()) {
          mismatched.add(i);
        }
      }
      Map<Integer, TimeBucketDrill> drills =
          mismatched.isEmpty() || !options.drillDown()
              ? Map.of()
              : drill(
                  jsc,
                  oldConf,
                  newConf,
                  oldRead,
                  newRead,
                  // the natural key of each row is taken with its digest
                  oldC.withDigest(true),
                  newC.withDigest(true),
                  mismatched);
      new SideSnapshots(clusters, progress)
          .requireAfterRead(options, via.get(options.old()), via.get(options.neu()));
      return new ReconcileResult(
          summary(oldRead, options.old(), old),
          summary(newRead, options.neu(), neu),
          buckets.from(),
          buckets.to(),
          buckets.size(),
          rangeFromData,
          options.time().describe(),
          options.digest(),
          comparisons,
          drills,
          (System.nanoTime() - t0) / 1e9);
    }
  }

  /**
   * No --from/--to: one keys-only pass over both sides finds the earliest and latest row time, and
   * the range is the whole buckets covering them. The tally pass needs its buckets up front (dense
   * per-bucket arrays), hence the pass.
   */
  private TimeBuckets rangeOfData(
      JavaSparkContext jsc, Configuration oldConf, Configuration newConf) {
    TimeExtent all;
    try (RegionRead o = reads().reader(options.old(), true, false).open(jsc, oldConf);
        RegionRead n = reads().reader(options.neu(), true, false).open(jsc, newConf);
        JobPhase phase =
            JobPhase.start(jsc.sc(), "reconcile: find the time range of both sides' rows")) {
      all =
          TimeExtent.of(o, options.old().layout(), options.time())
              .merge(TimeExtent.of(n, options.neu().layout(), options.time()));
    }
    if (all.isEmpty()) {
      throw RekeyException.cannot(
          "Cannot reconcile %s and %s without --from/--to: neither side has a row to take the time"
              + " range from (give --from and --to)",
          options.old().describe(), options.neu().describe());
    }
    try {
      return all.buckets(options.bucketMillis());
    } catch (RekeyException e) {
      throw RekeyException.usage(
          "Cannot reconcile the whole range of the data, %s to %s: %s",
          TimeSpec.iso(all.min()), TimeSpec.iso(all.max()), e.getMessage());
    }
  }

  private RowClassifier classifier(KeyLayout layout) {
    return new RowClassifier(
        layout, options.naturalKey(), options.time(), options.buckets(), options.digest());
  }

  /**
   * The drill-down compares contents, so it reads whole cells: again, when the counts pass read
   * keys only.
   */
  private Map<Integer, TimeBucketDrill> drill(
      JavaSparkContext jsc,
      Configuration oldConf,
      Configuration newConf,
      RegionRead oldRead,
      RegionRead newRead,
      RowClassifier oldC,
      RowClassifier newC,
      Set<Integer> mismatched) {
    DrillPass pass = new DrillPass(options);
    try (JobPhase phase =
        JobPhase.start(
            jsc.sc(), "reconcile: drill down %s", JobPhase.count(mismatched.size(), "bucket"))) {
      if (options.digest()) {
        return pass.run(oldRead, newRead, oldC, newC, mismatched);
      }
      try (RegionRead o = reader(options.old(), false).open(jsc, oldConf);
          RegionRead n = reader(options.neu(), false).open(jsc, newConf)) {
        return pass.run(o, n, oldC, newC, mismatched);
      }
    }
  }

  private RegionReader reader(SideSpec side) {
    return reader(side, !options.digest());
  }

  private RegionReader reader(SideSpec side, boolean keysOnly) {
    return reads().reader(side, keysOnly, true);
  }

  /** How the sides are read under the options of the run so far. */
  private SideReads reads() {
    return new SideReads(options, via);
  }

  /** One side's tallies, its rows streamed into them (no Result per row). */
  private static JavaPairRDD<String, SideTally> tally(
      RegionRead read, RowClassifier c, int buckets, String side) {
    return read.fold(new SideFold(c, buckets)).mapToPair(t -> new Tuple2<>(side, t));
  }

  private static void failOnUndecodable(
      SideSpec side, SideTally t, RegionRead read, RowClassifier c) {
    if (t.undecodable() == 0) {
      return;
    }
    JavaRDD<RowRecord> undecodable = read.map(new SideRows(c, RowRecord::undecodable));
    List<RowRecord> first;
    try (JobPhase phase =
        JobPhase.start(
            undecodable.context(),
            "reconcile: find the first undecodable key of %s",
            side.describe())) {
      first = undecodable.take(1);
    }
    String example =
        first.isEmpty()
            ? ""
            : ": first key 0x" + Hex.of(first.get(0).rowKey()) + ": " + first.get(0).reason();
    throw new RekeyException(
        String.format(
            "Cannot reconcile %s: %,d of %,d rows do not decode with layout %s%s."
                + " Check that --%s-layout is the layout %s was written with (try `rekey key decode` on one of its keys).",
            side.describe(),
            t.undecodable(),
            t.read(),
            side.layout().name(),
            example,
            side.role(),
            side.describe()));
  }

  private SideSummary summary(RegionRead read, SideSpec side, SideTally t) {
    long cells = 0;
    for (int i = 0; i < t.inRangeBuckets(); i++) {
      cells += t.bucket(i).cells();
    }
    String what =
        via.containsKey(side)
            ? side.describe() + " via snapshot " + via.get(side)
            : side.describe();
    return new SideSummary(
        what,
        side.layout().name(),
        read.regions(),
        read.partitions(),
        t.read(),
        t.inRange(),
        t.outside(),
        cells,
        read.reading(),
        reads().pruning(read, side),
        read.regionScans());
  }
}

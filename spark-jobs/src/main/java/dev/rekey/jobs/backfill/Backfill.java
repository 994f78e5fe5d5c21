package dev.rekey.jobs.backfill;

import dev.rekey.jobs.common.HBaseConfigs;
import dev.rekey.jobs.common.Job;
import dev.rekey.jobs.common.PackedCells;
import dev.rekey.jobs.common.RegionRead;
import dev.rekey.jobs.common.RegionReader;
import dev.rekey.jobs.common.RekeyException;
import dev.rekey.rowkey.Hex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.mapreduce.HFileOutputFormat2;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.CollectionAccumulator;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * The backfill action (run layer): snapshot → rekey → partition by the target's live regions (× k)
 * and sort in cell order → HFiles through HFileOutputFormat2's committer → bulk load a copy →
 * verify rows per region: {@code new Backfill(spark, hbaseConf, options).execute(progress)}.
 */
public final class Backfill implements Job<BackfillResult> {
  /**
   * Spark conf key, test only: fail the first attempt of this write partition mid-write
   * (fault-injection tests).
   */
  public static final String TEST_FAIL_PARTITION =
      "spark.rekey.test.backfill.failFirstAttemptOfPartition";

  private final SparkSession spark;
  private final Configuration hbaseConf;
  private final BackfillOptions options;
  private Consumer<String> progress = s -> {};

  public Backfill(SparkSession spark, Configuration hbaseConf, BackfillOptions options) {
    this.spark = spark;
    this.hbaseConf = hbaseConf;
    this.options = options;
  }

  /**
   * Runs the backfill; progress lines are the phase starts and per-region load/verify. Cells that
   * verification finds missing are a result with exit code 3, not an exception.
   */
  @Override
  public BackfillResult execute(Consumer<String> progress) {
    this.progress = progress;
    try {
      return run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private BackfillResult run() throws IOException {
    BackfillOptions o = options;
    TableName table = TableName.valueOf(o.targetTable());
    String stagingDir = o.stagingOr(defaultStagingRoot());
    Staging staging = new Staging(stagingDir, hbaseConf);
    try (Connection conn = ConnectionFactory.createConnection(hbaseConf);
        Admin admin = conn.getAdmin()) {
      TableDescriptor target = preflight(admin, table);
      if (o.dryRun()) {
        return dryRun(liveBoundaries(conn, table), target, stagingDir);
      }
      // one run per staging dir and per target: a second would clean, or load, the first one's
      // HFiles
      String verb = "backfill " + table;
      try (RunLock onStaging =
              RunLock.take(
                  staging.lock(), hbaseConf, verb, "staging dir " + staging.root, progress);
          RunLock onTarget =
              RunLock.take(targetLock(table), hbaseConf, verb, "target table " + table, progress)) {
        return execute(conn, staging, table, target);
      }
    }
  }

  /**
   * Where the lock on a target table lives: on the HBase root's filesystem, beside rekey's restore
   * dirs.
   */
  private Path targetLock(TableName table) throws IOException {
    Path root = CommonFSUtils.getRootDir(hbaseConf);
    org.apache.hadoop.fs.FileSystem fs = root.getFileSystem(hbaseConf);
    return fs.makeQualified(
        new Path(
            RegionReader.defaultRestoreRoot(fs).getParent(),
            "rekey-locks/backfill-" + table.getNameAsString().replace(':', '_') + ".lock"));
  }

  private BackfillResult execute(
      Connection conn, Staging staging, TableName table, TableDescriptor target)
      throws IOException {
    BackfillOptions o = options;
    Manifest manifest;
    double writeSeconds = 0;
    if (o.resume() && staging.fs.exists(staging.manifest())) {
      manifest = staging.readJson(staging.manifest(), Manifest.class);
      if (!manifest.sameInputs(o)) {
        throw RekeyException.usage(
            "Cannot resume the backfill of "
                + table
                + ": "
                + staging.manifest()
                + " is for a different backfill (snapshot "
                + manifest.sourceSnapshot()
                + ", layouts "
                + manifest.sourceLayout()
                + " -> "
                + manifest.targetLayout()
                + "); run without --resume to start over");
      }
      progress.accept(
          "Resuming from "
              + staging.manifest()
              + ": "
              + count(manifest, RegionState.VERIFIED)
              + " of "
              + manifest.regions().size()
              + " regions already verified");
      if (count(manifest, RegionState.VERIFIED) == manifest.regions().size()) {
        progress.accept(
            "Nothing to resume: every region was verified when it was loaded (their HFiles are gone). "
                + "To check the table as it is now, run `rekey reconcile` against the source.");
      }
    } else {
      RegionBoundaries live = liveBoundaries(conn, table);
      staging.clean();
      long t0 = System.nanoTime();
      manifest = write(staging, live, target);
      writeSeconds = (System.nanoTime() - t0) / 1e9;
      staging.writeJson(staging.manifest(), manifest);
    }
    int files = manifest.regions().stream().mapToInt(RegionEntry::files).sum();
    double loadSeconds = 0;
    double verifySeconds = 0;
    if (!o.noLoad()) {
      long t1 = System.nanoTime();
      manifest =
          new BulkLoadStep(
                  JavaSparkContext.fromSparkContext(spark.sparkContext()), hbaseConf, progress)
              .load(conn, staging, table, manifest);
      loadSeconds = (System.nanoTime() - t1) / 1e9;
      long t2 = System.nanoTime();
      manifest =
          new VerifyStep(spark, hbaseConf, progress, o.verifyRows())
              .verify(conn, staging, table, manifest);
      verifySeconds = (System.nanoTime() - t2) / 1e9;
    }
    boolean verified = count(manifest, RegionState.VERIFIED) == manifest.regions().size();
    BackfillResult result =
        new BackfillResult(
            o.targetTable(),
            o.sourceSnapshot(),
            staging.root.toString(),
            manifest.writePath(),
            false,
            !o.noLoad(),
            verified,
            manifest.accounting(),
            manifest.versions(),
            manifest.olderVersionsNotCopied(),
            manifest.regions(),
            Skew.of(manifest.regions().stream().map(RegionEntry::rows).toList()),
            files,
            writeSeconds,
            loadSeconds,
            verifySeconds);
    staging.writeJson(staging.result(), result);
    return result;
  }

  // ------------------------------------------------------------------------------------------------- preflight

  private TableDescriptor preflight(Admin admin, TableName table) throws IOException {
    BackfillOptions o = options;
    if (!admin.tableExists(table)) {
      throw new RekeyException(
          "Cannot backfill "
              + table
              + ": target table "
              + table
              + " does not exist (create it "
              + "with `rekey create-table --table "
              + table
              + " --layout "
              + o.targetLayout().name()
              + " --splits salt|uniform|FILE --family NAME`)");
    }
    SnapshotDescription snap = null;
    for (SnapshotDescription s : admin.listSnapshots()) {
      if (s.getName().equals(o.sourceSnapshot())) {
        snap = s;
      }
    }
    if (snap == null) {
      throw new RekeyException(
          "Cannot backfill "
              + table
              + ": snapshot "
              + o.sourceSnapshot()
              + " does not exist (list "
              + "snapshots with `echo list_snapshots | hbase shell`; take one with `snapshot 'SOURCE_TABLE', '"
              + o.sourceSnapshot()
              + "'`)");
    }
    TableDescriptor target = admin.getDescriptor(table);
    Set<String> targetFamilies = new TreeSet<>();
    for (ColumnFamilyDescriptor f : target.getColumnFamilies()) {
      targetFamilies.add(f.getNameAsString());
    }
    for (String f : o.families()) {
      if (!targetFamilies.contains(f)) {
        throw RekeyException.usage(
            "Cannot backfill "
                + table
                + ": family '"
                + f
                + "' (--families) is not in target "
                + "table "
                + table
                + " (its families: "
                + targetFamilies
                + "); add it to the table or leave it out");
      }
    }
    // the source table's families, when it still exists: every family read must exist in the target
    TableName sourceTable = snap.getTableName();
    if (admin.tableExists(sourceTable)) {
      for (ColumnFamilyDescriptor f : admin.getDescriptor(sourceTable).getColumnFamilies()) {
        String n = f.getNameAsString();
        if ((o.families().isEmpty() || o.families().contains(n)) && !targetFamilies.contains(n)) {
          throw RekeyException.usage(
              "Cannot backfill "
                  + table
                  + ": source family '"
                  + n
                  + "' (table "
                  + sourceTable
                  + ") is not in target table "
                  + table
                  + " (its families: "
                  + targetFamilies
                  + "); add it to the target, "
                  + "or choose families with --families");
        }
      }
    }
    // a salt whose buckets the regions do not split evenly rebuilds the hotspot the new key was
    // meant to remove
    dev.rekey.rowkey.PrefixSpec salt = o.targetLayout().prefix();
    if (salt.kind() == dev.rekey.rowkey.PrefixSpec.Kind.SALT) {
      java.util.Optional<String> misfit =
          SaltFit.problem(
              liveBoundaries(admin.getConnection(), table),
              salt.buckets(),
              o.targetLayout().name());
      if (misfit.isPresent()) {
        throw RekeyException.usage(
            "Cannot backfill "
                + table
                + ": "
                + misfit.get()
                + " (create the target with `rekey "
                + "create-table --table NEW_TABLE --layout "
                + o.targetLayout().name()
                + " --splits salt`, or pick a "
                + "--target-layout whose buckets match the table's regions)");
      }
    }
    // a staging dir that cannot take the HFiles fails here, named, not after the read as a Spark
    // "Job aborted"
    if (!o.dryRun() && !o.resume()) {
      long sourceBytes =
          org.apache.hadoop.hbase.snapshot.SnapshotInfo.getSnapshotStats(hbaseConf, snap)
              .getStoreFilesSize();
      StagingCheck.check(
          new Staging(o.stagingOr(defaultStagingRoot()), hbaseConf),
          "backfill " + table,
          sourceBytes,
          "the size of snapshot " + snap.getName() + "'s store files");
    }
    return target;
  }

  private static RegionBoundaries liveBoundaries(Connection conn, TableName table)
      throws IOException {
    try (RegionLocator locator = conn.getRegionLocator(table)) {
      List<HRegionLocation> locs = new ArrayList<>(locator.getAllRegionLocations());
      locs.sort(
          (a, b) -> Bytes.compareTo(a.getRegion().getStartKey(), b.getRegion().getStartKey()));
      List<byte[]> starts = new ArrayList<>();
      List<String> names = new ArrayList<>();
      for (HRegionLocation l : locs) {
        starts.add(l.getRegion().getStartKey());
        names.add(l.getRegion().getEncodedName());
      }
      return new RegionBoundaries(starts, names);
    }
  }

  private String defaultStagingRoot() throws IOException {
    org.apache.hadoop.fs.FileSystem fs = org.apache.hadoop.fs.FileSystem.get(hbaseConf);
    return new Path(fs.getHomeDirectory(), ".rekey-staging").toString();
  }

  // ------------------------------------------------------------------------------------------------- dry run

  private BackfillResult dryRun(RegionBoundaries live, TableDescriptor target, String stagingDir)
      throws IOException {
    BackfillOptions o = options;
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    LongAccumulator read = jsc.sc().longAccumulator("read");
    LongAccumulator quarantined = jsc.sc().longAccumulator("quarantined");
    LongAccumulator filtered = jsc.sc().longAccumulator("filtered");
    LongAccumulator olderVersions = jsc.sc().longAccumulator("olderVersions");
    LongAccumulator expired = jsc.sc().longAccumulator("expired");
    Rekeyer rekeyer = new Rekeyer(o.sourceLayout(), o.targetLayout());
    Retention retention = retention(target);
    int n = live.count();
    long[] totals;
    WritePath path = writePath(live);
    boolean salted = o.targetLayout().prefix().kind() == dev.rekey.rowkey.PrefixSpec.Kind.SALT;
    try (RegionRead rows = reader(retention, path).open(jsc, hbaseConf)) {
      totals =
          rows.rows()
              .mapPartitions(
                  it -> {
                    long[] acc = new long[n * 4];
                    java.util.Set<Integer> slots =
                        new java.util.HashSet<>(); // (region, bucket) this task writes into
                    RekeyedRows rr =
                        new RekeyedRows(
                            it,
                            rekeyer,
                            QuarantineWriter.none(),
                            read,
                            quarantined,
                            filtered,
                            retention,
                            olderVersions,
                            expired);
                    byte[] last = null;
                    while (rr.hasNext()) {
                      RekeyedRows.Row r = rr.next();
                      int region = live.regionOf(r.targetKey());
                      if (last == null || !Arrays.equals(last, r.sourceKey())) {
                        acc[region * 4]++;
                        last = r.sourceKey();
                      }
                      if (slots.add(region * 256 + (salted ? r.targetKey()[0] & 0xff : 0))) {
                        acc[region * 4 + 3]++; // one file per family for each (task, bucket) on the
                        // in-order path
                      }
                      for (Cell c : r.cells()) {
                        acc[region * 4 + 1]++;
                        acc[region * 4 + 2] += PackedCells.keyValueLength(r.targetKey().length, c);
                      }
                    }
                    return List.of(acc).iterator();
                  })
              .reduce(Backfill::sum);
    }
    int families = o.families().isEmpty() ? target.getColumnFamilyCount() : o.families().size();
    long maxFile =
        target.getMaxFileSize() > 0
            ? target.getMaxFileSize()
            : hbaseConf.getLong("hbase.hregion.max.filesize", 10L << 30);
    List<RegionEntry> regions = new ArrayList<>();
    long written = 0;
    for (int i = 0; i < n; i++) {
      long rowsIn = totals[i * 4];
      written += rowsIn;
      // per family: one file per (task, bucket) in order, or per sub-partition with data when
      // sorted; more if files
      // roll at the max file size
      long writers =
          path.inSourceOrder() ? totals[i * 4 + 3] : Math.min(o.splitsPerRegion(), rowsIn);
      int files = rowsIn == 0 ? 0 : (int) (families * writers + totals[i * 4 + 2] / maxFile);
      regions.add(
          new RegionEntry(
              i,
              live.name(i),
              Hex.of(live.start(i)),
              Hex.of(live.end(i)),
              rowsIn,
              totals[i * 4 + 1],
              totals[i * 4 + 2],
              files,
              RegionState.PLANNED));
    }
    Accounting acc = new Accounting(read.value(), written, quarantined.value(), filtered.value());
    return new BackfillResult(
        o.targetTable(),
        o.sourceSnapshot(),
        stagingDir,
        path.describe(),
        true,
        false,
        false,
        acc,
        o.versions().toString(),
        olderVersions.value(),
        regions,
        Skew.of(regions.stream().map(RegionEntry::rows).toList()),
        regions.stream().mapToInt(RegionEntry::files).sum(),
        0,
        0,
        0);
  }

  /**
   * What each target family keeps: versions to copy ({@code --versions}, capped at the family's
   * VERSIONS: a family that keeps fewer would hide the rest at once and drop them at its next major
   * compaction), and for a family with a TTL, the time before which a cell would expire as soon as
   * it is loaded.
   */
  private Retention retention(TableDescriptor target) {
    Map<String, Integer> caps = new TreeMap<>();
    Map<String, Long> expiresBefore = new TreeMap<>();
    long now = System.currentTimeMillis();
    for (ColumnFamilyDescriptor f : target.getColumnFamilies()) {
      caps.put(f.getNameAsString(), options.versions().capAt(f.getMaxVersions()));
      if (f.getTimeToLive() != HConstants.FOREVER) {
        expiresBefore.put(f.getNameAsString(), now - f.getTimeToLive() * 1000L);
      }
    }
    int most = caps.values().stream().mapToInt(Integer::intValue).max().orElse(1);
    // read what was asked for, so the versions a family cannot keep are counted, not silently
    // skipped by the scan
    return new Retention(
        caps,
        expiresBefore,
        options.versions().isAll() ? Integer.MAX_VALUE : Math.max(most, options.versions().max()));
  }

  /**
   * The shared snapshot read: time range, families and versions on the scan, k splits per region,
   * whole rows.
   */
  private RegionReader reader(Retention retention, WritePath path) {
    BackfillOptions o = options;
    RegionReader r =
        RegionReader.snapshot(o.sourceSnapshot())
            .families(o.families())
            .versions(retention.readVersions());
    if (path.inSourceOrder()) {
      r.splitsPerRegion(
          path.splitsPerSourceRegion()); // sized by the plan to keep the files per region in bounds
    } else {
      // two read tasks per core at least: a legacy source is often a few large regions
      r.splitsPerRegion(o.splitsPerRegion()).minPartitions(2 * readTasksWanted());
    }
    // a cell time range, not the key ranges of a time-first key: --from/--to selects cells by their
    // timestamps, and a row keyed outside the window can hold cells stamped inside it (an update
    // written since)
    return r.timeRange(o.cellTime().from(), o.cellTime().to());
  }

  private int readTasksWanted() {
    return spark.sparkContext().defaultParallelism();
  }

  /**
   * The write path for this run: in source order where the layouts allow it (see {@link
   * WritePath}).
   */
  private WritePath writePath(RegionBoundaries live) throws IOException {
    if (options.sortAlways()) {
      return WritePath.sorted("--write-path sort");
    }
    int limit =
        hbaseConf.getInt(
            WritePath.MAX_FILES_PER_REGION_KEY, WritePath.DEFAULT_MAX_FILES_PER_REGION);
    return WritePath.choose(
        options.sourceLayout(),
        options.targetLayout(),
        live,
        sourceRegions(),
        2 * readTasksWanted(),
        limit);
  }

  /** Regions of the source snapshot, from its manifest. */
  private int sourceRegions() throws IOException {
    Path rootDir = CommonFSUtils.getRootDir(hbaseConf);
    org.apache.hadoop.fs.FileSystem fs = rootDir.getFileSystem(hbaseConf);
    return org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormatImpl
        .getRegionInfosFromManifest(
            org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormatImpl.getSnapshotManifest(
                hbaseConf, options.sourceSnapshot(), rootDir, fs))
        .size();
  }

  private static long[] sum(long[] a, long[] b) {
    long[] r = a.clone();
    for (int i = 0; i < r.length; i++) {
      r[i] += b[i];
    }
    return r;
  }

  // ------------------------------------------------------------------------------------------------- write

  private Manifest write(Staging staging, RegionBoundaries live, TableDescriptor target)
      throws IOException {
    BackfillOptions o = options;
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    LongAccumulator read = jsc.sc().longAccumulator("backfill.read");
    LongAccumulator quarantined = jsc.sc().longAccumulator("backfill.quarantined");
    LongAccumulator filtered = jsc.sc().longAccumulator("backfill.filtered");
    LongAccumulator collisions = jsc.sc().longAccumulator("backfill.collisions");
    CollectionAccumulator<String> examples =
        jsc.sc().collectionAccumulator("backfill.collisionExamples");
    LongAccumulator olderVersions = jsc.sc().longAccumulator("backfill.olderVersions");
    LongAccumulator expired = jsc.sc().longAccumulator("backfill.expired");
    Retention retention = retention(target);
    KeyedCounts counts = new KeyedCounts();
    jsc.sc().register(counts, "backfill.counts");

    Rekeyer rekeyer = new Rekeyer(o.sourceLayout(), o.targetLayout());
    Map<String, String> confMap = HBaseConfigs.toMap(hbaseConf);
    String quarantineDir = staging.quarantine().toString();
    int k = o.splitsPerRegion();
    TargetPartitioner partitioner = new TargetPartitioner(live, k);
    int failPartition = spark.sparkContext().getConf().getInt(TEST_FAIL_PARTITION, -1);

    WritePath path = writePath(live);
    progress.accept("Write path: " + path.describe());
    List<InOrderHFiles.WrittenFile> inOrderFiles = null;
    try (RegionRead rows = reader(retention, path).open(jsc, hbaseConf)) {
      if (path.inSourceOrder()) {
        progress.accept(
            "Reading snapshot "
                + o.sourceSnapshot()
                + " in "
                + rows.partitions()
                + " tasks, writing HFiles "
                + "for "
                + live.count()
                + " regions to "
                + staging.attempts());
        long maxFile =
            target.getMaxFileSize() > 0
                ? target.getMaxFileSize()
                : hbaseConf.getLong("hbase.hregion.max.filesize", 10L << 30);
        InOrderHFiles writer =
            new InOrderHFiles(
                live,
                o.targetLayout().prefix().kind() == dev.rekey.rowkey.PrefixSpec.Kind.SALT,
                target,
                confMap,
                staging.attempts(),
                maxFile);
        inOrderFiles =
            rows.rows()
                .mapPartitions(
                    it -> {
                      TaskContext tc = TaskContext.get();
                      QuarantineWriter q =
                          new QuarantineWriter(
                              quarantineDir,
                              tc.partitionId(),
                              tc.taskAttemptId(),
                              HBaseConfigs.fromMap(confMap));
                      return writer
                          .write(
                              new RekeyedRows(
                                  it,
                                  rekeyer,
                                  q,
                                  read,
                                  quarantined,
                                  filtered,
                                  retention,
                                  olderVersions,
                                  expired),
                              counts,
                              collisions,
                              examples,
                              tc.partitionId() == failPartition)
                          .iterator();
                    })
                .collect();
      } else {
        progress.accept(
            "Reading snapshot "
                + o.sourceSnapshot()
                + ", writing HFiles for "
                + live.count()
                + " regions x "
                + k
                + " to "
                + staging.hfiles());
        JavaPairRDD<byte[], byte[]> cells =
            rows.rows()
                .mapPartitionsToPair(
                    it -> {
                      TaskContext tc = TaskContext.get();
                      QuarantineWriter q =
                          new QuarantineWriter(
                              quarantineDir,
                              tc.partitionId(),
                              tc.taskAttemptId(),
                              HBaseConfigs.fromMap(confMap));
                      return new RowsOf(
                          new RekeyedRows(
                              it,
                              rekeyer,
                              q,
                              read,
                              quarantined,
                              filtered,
                              retention,
                              olderVersions,
                              expired));
                    });
        // the sort shuffle (whole rows, by target key) spills to disk: a region never has to fit in
        // memory
        JavaPairRDD<byte[], byte[]> sorted =
            TargetSort.of(cells, partitioner, spark.sparkContext().getConf());
        JavaPairRDD<ImmutableBytesWritable, KeyValue> hfileCells =
            sorted.mapPartitionsToPair(
                it -> {
                  int p = TaskContext.getPartitionId();
                  return new WriteCells(
                      it,
                      partitioner.regionOf(p),
                      counts,
                      collisions,
                      examples,
                      p == failPartition);
                });
        hfileCells.saveAsNewAPIHadoopFile(
            staging.hfiles().toString(),
            ImmutableBytesWritable.class,
            KeyValue.class,
            HFileOutputFormat2.class,
            HFileOutput.forTable(hbaseConf, target));
      }
    }

    if (collisions.value() > 0) {
      staging.fs.delete(staging.hfiles(), true);
      staging.fs.delete(staging.attempts(), true);
      throw new RekeyException(
          "Cannot backfill "
              + o.targetTable()
              + ": "
              + collisions.value()
              + " target row key(s) "
              + "would each come from more than one source row with layouts "
              + o.sourceLayout().name()
              + " -> "
              + o.targetLayout().name()
              + ", e.g. "
              + String.join("; ", examples.value().subList(0, Math.min(3, examples.value().size())))
              + ". Nothing was loaded. Choose a target layout that keeps every "
              + "field that makes a source key unique.");
    }
    if (expired.value() > 0) {
      staging.fs.delete(staging.hfiles(), true);
      throw new RekeyException(
          "Cannot backfill "
              + o.targetTable()
              + ": "
              + expired.value()
              + " cells are older than "
              + "their target family's TTL ("
              + ttls(target)
              + ") and would expire as soon as they are loaded. Nothing was "
              + "loaded. Raise the TTL (`alter '"
              + o.targetTable()
              + "', {NAME => 'FAMILY', TTL => SECONDS}`), or copy "
              + "only the cells it keeps with --from.");
    }
    long written = 0;
    List<RegionEntry> regions = new ArrayList<>();
    Map<Integer, Integer> filesPerRegion =
        inOrderFiles != null ? organize(staging, inOrderFiles) : organize(staging, live);
    for (int i = 0; i < live.count(); i++) {
      long r = counts.get("rows." + i);
      if (r > 0 && filesPerRegion.getOrDefault(i, 0) == 0) {
        // the ledger must never say a region with rows has nothing to load (it would be "verified"
        // empty)
        throw new RekeyException(
            "Cannot backfill "
                + o.targetTable()
                + ": "
                + r
                + " rows were written for region "
                + i
                + " but "
                + staging.root
                + " holds no HFile for it (did another process clean the staging dir?). "
                + "Nothing was loaded; rerun.");
      }
      written += r;
      regions.add(
          new RegionEntry(
              i,
              live.name(i),
              Hex.of(live.start(i)),
              Hex.of(live.end(i)),
              r,
              counts.get("cells." + i),
              counts.get("bytes." + i),
              filesPerRegion.getOrDefault(i, 0),
              RegionState.WRITTEN));
    }
    Accounting acc = new Accounting(read.value(), written, quarantined.value(), filtered.value());
    if (acc.quarantined() > o.maxQuarantined()) {
      staging.fs.delete(new Path(staging.root, "regions"), true);
      throw new RekeyException(
          "Cannot backfill "
              + o.targetTable()
              + ": "
              + acc.quarantined()
              + " of "
              + acc.read()
              + " source row keys in snapshot "
              + o.sourceSnapshot()
              + " do not decode with source layout "
              + o.sourceLayout().name()
              + firstQuarantined(staging)
              + "; they are listed in "
              + staging.quarantine()
              + ". Nothing was loaded. Check --source-layout, or accept them with --max-quarantined "
              + acc.quarantined()
              + ".");
    }
    if (!acc.balances()) {
      throw new RekeyException(
          "Cannot backfill "
              + o.targetTable()
              + ": the counts do not balance ("
              + acc.line()
              + "); nothing was loaded. Rerun; if it persists, report it with "
              + staging.root);
    }
    TreeMap<String, Long> hours = new TreeMap<>();
    counts
        .value()
        .forEach(
            (key, v) -> {
              if (key.startsWith("hour.")) {
                hours.put(key.substring(5), v);
              }
            });
    progress.accept("  " + acc.line());
    if (olderVersions.value() > 0) {
      progress.accept(
          String.format(
              "  %,d older cell versions not copied: %s (raise a family's VERSIONS with "
                  + "`alter '%s', {NAME => 'FAMILY', VERSIONS => N}` and rerun to keep them)",
              olderVersions.value(), keptVersions(target), o.targetTable()));
    }
    return new Manifest(
        Manifest.VERSION,
        o.sourceSnapshot(),
        o.sourceLayout().name(),
        o.targetTable(),
        o.targetLayout().name(),
        o.cellTime().from(),
        o.cellTime().to(),
        o.families(),
        k,
        Instant.now().toString(),
        regions,
        hours,
        acc,
        o.versions().toString(),
        olderVersions.value(),
        path.describe());
  }

  private static String ttls(TableDescriptor target) {
    List<String> out = new ArrayList<>();
    for (ColumnFamilyDescriptor f : target.getColumnFamilies()) {
      if (f.getTimeToLive() != HConstants.FOREVER) {
        out.add("family " + f.getNameAsString() + ": TTL " + f.getTimeToLive() + " s");
      }
    }
    return String.join(", ", out);
  }

  private static String keptVersions(TableDescriptor target) {
    List<String> out = new ArrayList<>();
    for (ColumnFamilyDescriptor f : target.getColumnFamilies()) {
      out.add(
          "family "
              + f.getNameAsString()
              + " of "
              + target.getTableName()
              + " keeps VERSIONS="
              + f.getMaxVersions());
    }
    return String.join(", ", out);
  }

  private static String firstQuarantined(Staging staging) {
    try {
      if (!staging.fs.exists(staging.quarantine())) {
        return "";
      }
      for (FileStatus f : staging.fs.listStatus(staging.quarantine())) {
        if (f.getPath().getName().startsWith("part-")) {
          try (java.io.BufferedReader r =
              new java.io.BufferedReader(
                  new java.io.InputStreamReader(
                      staging.fs.open(f.getPath()), java.nio.charset.StandardCharsets.UTF_8))) {
            String line = r.readLine();
            if (line != null) {
              return " (first: " + line + ")";
            }
          }
        }
      }
    } catch (IOException e) {
      return "";
    }
    return "";
  }

  /**
   * Moves the files of the kept attempts (one per partition, as Spark returned them) into their
   * regions' dirs and removes every attempt dir, with whatever failed or speculative attempts left
   * there; returns files per region.
   */
  private static Map<Integer, Integer> organize(
      Staging staging, List<InOrderHFiles.WrittenFile> written) throws IOException {
    Map<Integer, Integer> files = new TreeMap<>();
    for (InOrderHFiles.WrittenFile f : written) {
      Path src = new Path(f.path());
      Path dest = new Path(new Path(staging.region(f.region()), f.family()), src.getName());
      staging.fs.mkdirs(dest.getParent());
      if (!staging.fs.rename(src, dest)) {
        throw new IOException("Cannot move " + src + " to " + dest);
      }
      files.merge(f.region(), 1, Integer::sum);
    }
    staging.fs.delete(staging.attempts(), true);
    return files;
  }

  /**
   * Moves each committed HFile into its target region's dir (by its first row); returns files per
   * region.
   */
  private Map<Integer, Integer> organize(Staging staging, RegionBoundaries live)
      throws IOException {
    Map<Integer, Integer> files = new TreeMap<>();
    if (!staging.fs.exists(staging.hfiles())) {
      return files;
    }
    for (FileStatus famDir : staging.fs.listStatus(staging.hfiles())) {
      String fam = famDir.getPath().getName();
      if (!famDir.isDirectory() || fam.startsWith("_") || fam.startsWith(".")) {
        continue;
      }
      for (FileStatus f : staging.fs.listStatus(famDir.getPath())) {
        String name = f.getPath().getName();
        if (f.isDirectory() || name.startsWith("_") || name.startsWith(".")) {
          continue;
        }
        byte[] first;
        try (HFile.Reader r =
            HFile.createReader(staging.fs, f.getPath(), CacheConfig.DISABLED, true, hbaseConf)) {
          first = r.getFirstRowKey().orElse(null);
        }
        if (first == null) {
          staging.fs.delete(f.getPath(), false); // an empty file: nothing to load
          continue;
        }
        int region = live.regionOf(first);
        Path dest = new Path(new Path(staging.region(region), fam), name);
        staging.fs.mkdirs(dest.getParent());
        if (!staging.fs.rename(f.getPath(), dest)) {
          throw new IOException("Cannot move " + f.getPath() + " to " + dest);
        }
        files.merge(region, 1, Integer::sum);
      }
    }
    staging.fs.delete(staging.hfiles(), true);
    return files;
  }

  static long count(Manifest m, RegionState s) {
    return m.regions().stream().filter(r -> r.state() == s).count();
  }

  /** Re-keyed rows as (target key, packed row) records for the sort shuffle. */
  private static final class RowsOf implements Iterator<Tuple2<byte[], byte[]>> {
    private final RekeyedRows rows;

    RowsOf(RekeyedRows rows) {
      this.rows = rows;
    }

    @Override
    public boolean hasNext() {
      return rows.hasNext();
    }

    @Override
    public Tuple2<byte[], byte[]> next() {
      RekeyedRows.Row r = rows.next();
      return new Tuple2<>(
          r.targetKey(), PackedRow.pack(r.sourceKey(), r.targetKey(), r.time(), r.cells()));
    }
  }
}

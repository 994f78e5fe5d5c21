package dev.rekey.jobs.backfill;

import dev.rekey.jobs.common.DecodedCell;
import dev.rekey.jobs.common.HBaseConfigs;
import dev.rekey.jobs.common.JobPhase;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * The backfill's HFile path for rows the caller already holds under their target keys (a repair's
 * large write): the rows go through the backfill's sort shuffle ({@link TargetSort}) into {@link
 * InOrderHFiles}, the write is checked into the ledger ({@link WriteOutcome}), bulk-loaded ({@link
 * BulkLoadStep}) and verified ({@link VerifyStep}), under the locks on the staging dir and the
 * target table ({@link RunLock}) — the backfill's own steps, fed from an RDD instead of a snapshot
 * read, so only the rows given are written, into the regions that hold them.
 *
 * <p>A run killed after the write is finished by {@link #resume}: the ledger loads only the regions
 * not loaded yet. No load record is written into the target's attributes: those say which snapshot
 * was backfilled, and a repair's rows are not a snapshot's whole content.
 */
public final class RowsLoad {
  /** One row to write: its key in the target table and its cells (any order). */
  public record Row(byte[] key, List<DecodedCell> cells) implements java.io.Serializable {}

  /**
   * What the load did.
   *
   * @param rows rows written
   * @param cells cells written
   * @param regions target regions that received files
   * @param files HFiles loaded
   * @param verified true when every region is verified (its files are store files of the table)
   */
  public record Loaded(long rows, long cells, int regions, int files, boolean verified) {}

  private final SparkSession spark;
  private final Configuration hbaseConf;
  private final Consumer<String> progress;

  /** Writes into the tables of {@code hbaseConf}'s cluster. */
  public RowsLoad(SparkSession spark, Configuration hbaseConf, Consumer<String> progress) {
    this.spark = spark;
    this.hbaseConf = hbaseConf;
    this.progress = progress;
  }

  /**
   * The options of such a load: {@code snapshot} (the rows' origin, named in the ledger), the
   * layouts and target table, the staging dir; the sorted path always.
   */
  public static BackfillOptions options(
      String snapshot,
      dev.rekey.rowkey.KeyLayout sourceLayout,
      String table,
      dev.rekey.rowkey.KeyLayout targetLayout,
      String staging) {
    return BackfillOptions.builder()
        .sourceSnapshot(snapshot)
        .sourceLayout(sourceLayout)
        .target(table, targetLayout)
        .staging(staging)
        .sortAlways(true)
        .versions(dev.rekey.jobs.common.Versions.ALL)
        .build();
  }

  /**
   * The snapshot named by the ledger of a load not finished in {@code staging} (see {@link
   * #resume}), if there is one.
   */
  public java.util.Optional<String> pending(String staging) throws IOException {
    Staging s = new Staging(staging, hbaseConf);
    if (!s.fs.exists(s.manifest())) {
      return java.util.Optional.empty();
    }
    Manifest m = s.readJson(s.manifest(), Manifest.class);
    return m.regions().stream().anyMatch(r -> r.state() != RegionState.VERIFIED)
        ? java.util.Optional.of(m.sourceSnapshot())
        : java.util.Optional.empty();
  }

  /** Writes {@code rows} as HFiles, loads and verifies them. */
  public Loaded load(BackfillOptions o, JavaRDD<Row> rows) throws IOException {
    return run(o, rows);
  }

  /** Loads and verifies what a killed {@link #load} wrote, from its ledger (no write). */
  public Loaded resume(BackfillOptions o) throws IOException {
    return run(o, null);
  }

  private Loaded run(BackfillOptions o, JavaRDD<Row> rows) throws IOException {
    TableName table = TableName.valueOf(o.targetTable());
    Staging staging = new Staging(o.staging(), hbaseConf);
    String verb = "repair " + table;
    try (Connection conn = ConnectionFactory.createConnection(hbaseConf);
        Admin admin = conn.getAdmin();
        RunLock onStaging =
            RunLock.take(staging.lock(), hbaseConf, verb, "staging dir " + staging.root, progress);
        RunLock onTarget =
            RunLock.take(
                RunLock.targetPath(hbaseConf, admin, table),
                hbaseConf,
                verb,
                "target table " + table,
                progress)) {
      Manifest m;
      if (rows == null) {
        m = Ledger.read(staging, o, table);
        Ledger.resume(staging, m, progress);
      } else {
        TableDescriptor target = admin.getDescriptor(table);
        TargetRun run =
            new TargetRun(o, plan(o, target), staging, LiveRegions.of(conn, table), target);
        staging.clean();
        m = WriteOutcome.manifest(run, write(run, rows), progress);
        staging.writeJson(staging.manifest(), m);
      }
      m =
          new BulkLoadStep(
                  JavaSparkContext.fromSparkContext(spark.sparkContext()), hbaseConf, progress)
              .load(conn, staging, table, m, () -> {});
      m = new VerifyStep(spark, hbaseConf, progress, false).verify(conn, staging, table, m);
      boolean verified = Ledger.count(m, RegionState.VERIFIED) == m.regions().size();
      if (verified) {
        staging.clean(); // nothing left to resume: the ledger goes with the files
      }
      return new Loaded(
          m.regions().stream().mapToLong(RegionEntry::rows).sum(),
          m.regions().stream().mapToLong(RegionEntry::cells).sum(),
          (int) m.regions().stream().filter(r -> r.files() > 0).count(),
          m.regions().stream().mapToInt(RegionEntry::files).sum(),
          verified);
    }
  }

  /** The sorted path's plan for the target's families (no source regions: nothing is read). */
  private BackfillPlan plan(BackfillOptions o, TableDescriptor target) {
    List<BackfillPlan.TargetFamily> families = new ArrayList<>();
    for (var f : target.getColumnFamilies()) {
      families.add(
          new BackfillPlan.TargetFamily(
              f.getNameAsString(), f.getMaxVersions(), f.getTimeToLive()));
    }
    return BackfillPlan.of(
        new BackfillPlan.Inputs(
            o.sourceLayout(),
            o.targetLayout(),
            new RegionBoundaries(List.of(new byte[0]), List.of("all")),
            List.of(),
            families,
            o.families(),
            o.versions(),
            o.splitsPerRegion(),
            true,
            1,
            WritePath.DEFAULT_MAX_FILES_PER_REGION,
            PlanReader.maxFileSize(target, hbaseConf),
            System.currentTimeMillis(),
            BackfillPlan.Tiers.NONE));
  }

  /** The rows sorted by target key into each region's HFiles: the backfill's sorted write. */
  private WriteStep.Written write(TargetRun run, JavaRDD<Row> rows) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    RowCounters counters =
        new RowCounters(
            new Rekeyer(run.options().sourceLayout(), run.options().targetLayout()),
            run.plan().retention(),
            name -> jsc.sc().longAccumulator("repair.hfiles." + name));
    WriteTally tally = WriteTally.register(jsc.sc(), "repair.hfiles.");
    Map<String, String> confMap = HBaseConfigs.toMap(hbaseConf);
    InOrderHFiles writer =
        new InOrderHFiles(
            new HFileSlots(
                run.live(),
                run.salted(),
                PlanReader.maxFileSize(run.target(), hbaseConf),
                run.plan().tiers()),
            run.target(),
            confMap,
            run.staging().attempts());
    LongAccumulator read = counters.read;
    JavaPairRDD<byte[], byte[]> packed =
        rows.mapToPair(
            r -> {
              read.add(1);
              return new Tuple2<>(r.key(), pack(r));
            });
    List<InOrderHFiles.WrittenFile> files;
    try (JobPhase p =
        JobPhase.start(
            jsc.sc(),
            "repair: sort the rows by target key, write HFiles for %s",
            JobPhase.count(run.live().count(), "region"))) {
      files =
          TargetSort.of(packed, new TargetPartitioner(run.live(), 1))
              .mapPartitions(it -> writer.write(new WriteStep.SortedRows(it, 0), tally).iterator())
              .collect();
    }
    return new WriteStep.Written(counters, tally, files);
  }

  /** A row as the sort shuffle carries it: its cells as Puts in HBase order under its key. */
  static byte[] pack(Row r) {
    KeyValue[] cells = new KeyValue[r.cells().size()];
    for (int i = 0; i < cells.length; i++) {
      DecodedCell c = r.cells().get(i);
      cells[i] =
          new KeyValue(
              r.key(), c.family(), c.qualifier(), c.timestamp(), KeyValue.Type.Put, c.value());
    }
    Arrays.sort(cells, CellComparator.getInstance());
    return PackedRow.pack(r.key(), r.key(), Rekeyer.NO_TIME, cells);
  }
}

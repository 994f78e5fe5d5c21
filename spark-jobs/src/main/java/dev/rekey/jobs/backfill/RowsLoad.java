package dev.rekey.jobs.backfill;

import dev.rekey.common.DecodedCell;
import dev.rekey.jobs.backfill.staging.Manifest;
import dev.rekey.jobs.backfill.staging.RegionEntry;
import dev.rekey.jobs.backfill.staging.RegionState;
import dev.rekey.jobs.backfill.staging.Staging;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.SparkSession;

/**
 * The backfill's HFile path for rows the caller already holds under their target keys (a repair's
 * large write): the one {@link BackfillPipeline} — locks, ledger, the sorted write ({@link
 * KeyedRows}), manifest, bulk load and verification — fed from an RDD instead of a snapshot read,
 * so only the rows given are written, into the regions that hold them. What a repair does
 * differently is its {@link RunKind#REPAIR}: "repair T" in its locks, no load record, the staging
 * dir cleaned once verified, and (its options) verification by files, never by rows.
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
        .versions(dev.rekey.common.Versions.ALL)
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

  /**
   * The backfill pipeline for one target, as a repair's run ({@link RunKind#REPAIR}), fed {@code
   * rows} ({@link KeyedRows}; null: resumed from the ledger).
   */
  private Loaded run(BackfillOptions o, JavaRDD<Row> rows) throws IOException {
    TableName table = TableName.valueOf(o.targetTable());
    PreparedTarget target =
        new PreparedTarget(o, table, new Staging(o.staging(), hbaseConf), null, 0);
    BackfillResult r;
    try (Connection conn = ConnectionFactory.createConnection(hbaseConf);
        Admin admin = conn.getAdmin()) {
      r =
          new BackfillPipeline(spark, hbaseConf, RunKind.REPAIR, progress)
              .run(conn, admin, List.of(target), new KeyedRows(spark, hbaseConf, rows))
              .get(0);
    }
    return new Loaded(
        r.regions().stream().mapToLong(RegionEntry::rows).sum(),
        r.regions().stream().mapToLong(RegionEntry::cells).sum(),
        (int) r.regions().stream().filter(e -> e.files() > 0).count(),
        r.regions().stream().mapToInt(RegionEntry::files).sum(),
        r.outcome() == BackfillResult.Outcome.VERIFIED);
  }
}

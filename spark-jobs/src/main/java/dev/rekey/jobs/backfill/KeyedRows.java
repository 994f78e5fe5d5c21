package dev.rekey.jobs.backfill;

import dev.rekey.common.DecodedCell;
import dev.rekey.common.JobPhase;
import dev.rekey.jobs.backfill.plan.BackfillPlan;
import dev.rekey.jobs.backfill.plan.LiveRegions;
import dev.rekey.jobs.backfill.plan.PlanReader;
import dev.rekey.jobs.backfill.plan.RegionBoundaries;
import dev.rekey.jobs.backfill.plan.WritePath;
import dev.rekey.jobs.backfill.write.InOrderHFiles;
import dev.rekey.jobs.backfill.write.PackedRow;
import dev.rekey.jobs.backfill.write.Rekeyer;
import dev.rekey.jobs.backfill.write.RowCounters;
import dev.rekey.jobs.backfill.write.SortedWrite;
import dev.rekey.jobs.backfill.write.TargetWriter;
import dev.rekey.jobs.backfill.write.WriteTally;
import dev.rekey.jobs.backfill.write.Written;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * A repair's rows (run layer), already under their target keys ({@link RowsLoad.Row}): written on
 * the sorted path ({@link SortedWrite}) into the regions that hold them; nothing is read, so the
 * plan has no source regions. Without rows, the source resumes the ledger a killed load left.
 */
public final class KeyedRows implements RowSource {
  private final SparkSession spark;
  private final Configuration hbaseConf;
  private final JavaRDD<RowsLoad.Row> rows;

  /** {@code rows} to write into the tables of {@code hbaseConf}; null to resume from the ledger. */
  KeyedRows(SparkSession spark, Configuration hbaseConf, JavaRDD<RowsLoad.Row> rows) {
    this.spark = spark;
    this.hbaseConf = hbaseConf;
    this.rows = rows;
  }

  @Override
  public boolean resumes(PreparedTarget t) {
    return rows == null;
  }

  /** The sorted path's plan for the target's families and live regions. */
  @Override
  public TargetRun plan(PreparedTarget t, Connection conn) throws IOException {
    TableDescriptor target;
    try (Admin admin = conn.getAdmin()) {
      target = admin.getDescriptor(t.table());
    }
    return new TargetRun(
        t.options(),
        plan(t.options(), target),
        t.staging(),
        LiveRegions.of(conn, t.table()),
        target);
  }

  private BackfillPlan plan(BackfillOptions o, TableDescriptor target) {
    return BackfillPlan.of(
        new BackfillPlan.Inputs(
            o.sourceLayout(),
            o.targetLayout(),
            new RegionBoundaries(List.of(new byte[0]), List.of("all")),
            List.of(),
            PlanReader.families(target),
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
  @Override
  public List<Written> write(List<TargetRun> runs) {
    TargetRun run = runs.get(0);
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    RowCounters counters =
        new RowCounters(
            new Rekeyer(run.options().sourceLayout(), run.options().targetLayout()),
            run.plan().retention(),
            name -> jsc.sc().longAccumulator("repair.hfiles." + name));
    TargetWriter writer =
        TargetWriter.of(run, hbaseConf, counters, WriteTally.register(jsc.sc(), "repair.hfiles."));
    LongAccumulator read = counters.read;
    JavaPairRDD<byte[], byte[]> packed =
        rows.mapToPair(
            r -> {
              read.add(1);
              return new Tuple2<>(r.key(), pack(r));
            });
    List<InOrderHFiles.WrittenFile> files = new ArrayList<>();
    try (JobPhase p =
        JobPhase.start(
            jsc.sc(),
            "repair: sort the rows by target key, write HFiles for %s",
            JobPhase.count(run.live().count(), "region"))) {
      new SortedWrite(runs, List.of(writer))
          .write(packed, List.of(writer))
          .forEach(f -> files.add(f._2()));
    }
    return List.of(new Written(counters, writer.tally(), files));
  }

  /** A row as the sort shuffle carries it: its cells as Puts in HBase order under its key. */
  static byte[] pack(RowsLoad.Row r) {
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

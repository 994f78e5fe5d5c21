package dev.rekey.jobs.backfill;

import dev.rekey.jobs.common.HBaseConfigs;
import dev.rekey.jobs.common.RegionRead;
import dev.rekey.rowkey.PrefixSpec;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.HFileOutputFormat2;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.CollectionAccumulator;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * The write (run layer): reads the snapshot, rekeys every row and writes the target's HFiles into
 * the staging dir along the plan's path — streamed in source order by {@link InOrderHFiles}, or
 * sorted by target key through Spark's sort shuffle and HFileOutputFormat2's committer — counting
 * as it goes. What the counts mean, and whether they allow a load, is {@link WriteOutcome}'s.
 */
final class WriteStep {
  /** What the write's tasks reported, and the files of the in-order path's kept attempts. */
  record Written(
      RowCounters counters,
      KeyedCounts counts,
      LongAccumulator collisions,
      CollectionAccumulator<String> examples,
      List<InOrderHFiles.WrittenFile> inOrderFiles) {}

  private final SparkSession spark;
  private final Configuration hbaseConf;
  private final Consumer<String> progress;

  WriteStep(SparkSession spark, Configuration hbaseConf, Consumer<String> progress) {
    this.spark = spark;
    this.hbaseConf = hbaseConf;
    this.progress = progress;
  }

  Written write(
      BackfillOptions o,
      BackfillPlan plan,
      Staging staging,
      RegionBoundaries live,
      TableDescriptor target)
      throws IOException {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    RowCounters counters = RowCounters.of(jsc.sc(), "backfill.", o, plan, hbaseConf);
    LongAccumulator collisions = jsc.sc().longAccumulator("backfill.collisions");
    CollectionAccumulator<String> examples =
        jsc.sc().collectionAccumulator("backfill.collisionExamples");
    KeyedCounts counts = new KeyedCounts();
    jsc.sc().register(counts, "backfill.counts");
    Map<String, String> confMap = HBaseConfigs.toMap(hbaseConf);
    String quarantineDir = staging.quarantine().toString();

    progress.accept("Write path: " + plan.path().describe());
    List<InOrderHFiles.WrittenFile> inOrderFiles = null;
    try (RegionRead rows = SourceRead.of(o, plan).open(jsc, hbaseConf)) {
      if (plan.path().inSourceOrder()) {
        JavaRDD<Result> inOrder = rows.rowsInKeyOrder(plan.path().writeTasks());
        progress.accept(
            "Reading snapshot "
                + o.sourceSnapshot()
                + " ("
                + rows.partitions()
                + " splits) in "
                + inOrder.getNumPartitions()
                + " tasks, writing HFiles for "
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
                o.targetLayout().prefix().kind() == PrefixSpec.Kind.SALT,
                target,
                confMap,
                staging.attempts(),
                maxFile);
        inOrderFiles =
            inOrder
                .mapPartitions(
                    it -> {
                      QuarantineWriter q = quarantine(quarantineDir, confMap);
                      return writer
                          .write(counters.rekeyed(it, q), counts, collisions, examples)
                          .iterator();
                    })
                .collect();
      } else {
        int k = o.splitsPerRegion();
        progress.accept(
            "Reading snapshot "
                + o.sourceSnapshot()
                + ", writing HFiles for "
                + live.count()
                + " regions x "
                + k
                + " to "
                + staging.hfiles());
        TargetPartitioner partitioner = new TargetPartitioner(live, k);
        JavaPairRDD<byte[], byte[]> cells =
            rows.rows()
                .mapPartitionsToPair(
                    it -> new RowsOf(counters.rekeyed(it, quarantine(quarantineDir, confMap))));
        // the sort shuffle (whole rows, by target key) spills to disk: a region never has to fit
        // in memory
        JavaPairRDD<byte[], byte[]> sorted =
            TargetSort.of(cells, partitioner, spark.sparkContext().getConf());
        JavaPairRDD<ImmutableBytesWritable, KeyValue> hfileCells =
            sorted.mapPartitionsToPair(
                it -> {
                  int p = TaskContext.getPartitionId();
                  return new WriteCells(it, partitioner.regionOf(p), counts, collisions, examples);
                });
        hfileCells.saveAsNewAPIHadoopFile(
            staging.hfiles().toString(),
            ImmutableBytesWritable.class,
            KeyValue.class,
            HFileOutputFormat2.class,
            HFileOutput.forTable(hbaseConf, target));
      }
    }
    return new Written(counters, counts, collisions, examples, inOrderFiles);
  }

  private static QuarantineWriter quarantine(String dir, Map<String, String> confMap) {
    TaskContext tc = TaskContext.get();
    return new QuarantineWriter(
        dir, tc.partitionId(), tc.taskAttemptId(), HBaseConfigs.fromMap(confMap));
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

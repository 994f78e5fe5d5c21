package dev.rekey.bench;

import dev.rekey.jobs.backfill.write.Rekeyer;
import dev.rekey.read.RegionRead;
import dev.rekey.read.RegionReader;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.spark.FamilyHFileWriteOptions;
import org.apache.hadoop.hbase.spark.JavaHBaseContext;
import org.apache.hadoop.hbase.spark.KeyFamilyQualifier;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Pair;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;

/**
 * Baseline: hbase-spark's {@code JavaHBaseContext#bulkLoad} (a sort shuffle by row/family/qualifier
 * into one partition per target region, its own HFile writers) on the same snapshot read and
 * rekeying, then {@code BulkLoadHFiles}. It stamps one job-wide timestamp on every cell (the source
 * timestamps are lost), so it is a speed baseline only.
 */
final class HBaseSparkBulkLoad {
  private HBaseSparkBulkLoad() {}

  /** Returns the rows read. */
  static long run(
      JavaSparkContext jsc,
      Configuration conf,
      String snap,
      int minPartitions,
      Rekeyer rekeyer,
      TableName target,
      TableDescriptor descriptor,
      String stagingDir)
      throws Exception {
    // hbase-spark 1.0.1's logging set-up asks slf4j 1.x's StaticLoggerBinder for its backend on
    // first use, inside the
    // bulk-load tasks, which fails with NoClassDefFoundError on slf4j 2 (the project's). The set-up
    // only picks log4j
    // defaults, and slf4j is already bound: mark it done (local[2]: the executors share this JVM).
    org.apache.hadoop.hbase.spark.Logging$.MODULE$
        .org$apache$hadoop$hbase$spark$Logging$$initialized_$eq(true);
    JavaHBaseContext hbase = new JavaHBaseContext(jsc, conf);
    // the target family's own settings, as rekey and HFileOutputFormat2 take them from the
    // descriptor
    Map<byte[], FamilyHFileWriteOptions> options = new HashMap<>();
    for (ColumnFamilyDescriptor f : descriptor.getColumnFamilies()) {
      options.put(
          f.getName(),
          new FamilyHFileWriteOptions(
              f.getCompressionType().name(),
              f.getBloomFilterType().name(),
              f.getBlocksize(),
              f.getDataBlockEncoding().name()));
    }
    LongAccumulator rows = jsc.sc().longAccumulator("bench rows read");
    try (RegionRead read =
        RegionReader.snapshot(snap).minPartitions(minPartitions).open(jsc, conf)) {
      hbase.bulkLoad(
          read.rows()
              .flatMap(
                  row -> {
                    rows.add(1);
                    return RekeyedCells.of(rekeyer, row).iterator();
                  }),
          target,
          (KeyValue kv) ->
              new Pair<>(
                  new KeyFamilyQualifier(
                      CellUtil.cloneRow(kv), CellUtil.cloneFamily(kv), CellUtil.cloneQualifier(kv)),
                  CellUtil.cloneValue(kv)),
          stagingDir,
          options,
          false,
          HConstants.DEFAULT_MAX_FILE_SIZE);
    }
    Configuration load = new Configuration(conf);
    load.set(BulkLoadHFiles.CREATE_TABLE_CONF_KEY, "no");
    BulkLoadHFiles.create(load).bulkLoad(target, new Path(stagingDir));
    return rows.value();
  }
}

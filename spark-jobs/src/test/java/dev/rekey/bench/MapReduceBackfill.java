package dev.rekey.bench;

import dev.rekey.jobs.backfill.write.Rekeyer;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.HFileOutputFormat2;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.hbase.mapreduce.TableMapper;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * Baseline: the classic MapReduce backfill. TableSnapshotInputFormat (one map task per source
 * region), a mapper that rekeys, {@code HFileOutputFormat2.configureIncrementalLoad(job, table,
 * locator)} (total-order partitioner, one reducer per target region, CellSortReducer), run in this
 * JVM by LocalJobRunner with 2 map and 2 reduce slots; then {@code BulkLoadHFiles}. Cell timestamps
 * are kept.
 */
final class MapReduceBackfill {
  static final String SOURCE_LAYOUT = "bench.mr.source.layout";
  static final String TARGET_LAYOUT = "bench.mr.target.layout";

  private MapReduceBackfill() {}

  /** Returns the rows the maps read. */
  static long run(
      Configuration base,
      String snap,
      Path sourceLayout,
      Path targetLayout,
      TableName target,
      Path workDir)
      throws Exception {
    Configuration conf = new Configuration(base);
    conf.set("mapreduce.framework.name", "local");
    conf.setInt("mapreduce.local.map.tasks.maximum", 2);
    conf.setInt("mapreduce.local.reduce.tasks.maximum", 2);
    // LocalJobRunner's spills and staging in this run's own scratch dir, not the shared
    // /tmp/hadoop-<user>
    conf.set("mapreduce.cluster.local.dir", workDir.resolve("local").toString());
    conf.set("mapreduce.jobtracker.staging.root.dir", workDir.resolve("staging").toString());
    conf.set(SOURCE_LAYOUT, sourceLayout.toString());
    conf.set(TARGET_LAYOUT, targetLayout.toString());
    conf.set(BulkLoadHFiles.CREATE_TABLE_CONF_KEY, "no");
    Job job = Job.getInstance(conf, "bench-mapreduce-backfill");
    Scan scan = new Scan();
    scan.setCacheBlocks(false);
    scan.readAllVersions();
    TableMapReduceUtil.initTableSnapshotMapperJob(
        snap,
        scan,
        RekeyMapper.class,
        ImmutableBytesWritable.class,
        KeyValue.class,
        job,
        false,
        new org.apache.hadoop.fs.Path(workDir.resolve("restore").toUri()));
    org.apache.hadoop.fs.Path out =
        new org.apache.hadoop.fs.Path(workDir.resolve("hfiles").toUri());
    try (Connection c = ConnectionFactory.createConnection(conf);
        Table t = c.getTable(target);
        RegionLocator locator = c.getRegionLocator(target)) {
      HFileOutputFormat2.configureIncrementalLoad(job, t, locator);
    }
    FileOutputFormat.setOutputPath(job, out);
    if (!job.waitForCompletion(false)) {
      throw new IllegalStateException(
          "Cannot run the MapReduce backfill: job "
              + job.getJobID()
              + " failed ("
              + job.getStatus().getFailureInfo()
              + ")");
    }
    long rows = job.getCounters().findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue();
    BulkLoadHFiles.create(job.getConfiguration()).bulkLoad(target, out);
    return rows;
  }

  /** Rekeys each source row and emits its cells under the new key, timestamps kept. */
  public static final class RekeyMapper extends TableMapper<ImmutableBytesWritable, KeyValue> {
    private Rekeyer rekeyer;

    @Override
    protected void setup(Context context) {
      Configuration conf = context.getConfiguration();
      rekeyer =
          new Rekeyer(
              KeyLayout.load(Path.of(conf.get(SOURCE_LAYOUT))),
              KeyLayout.load(Path.of(conf.get(TARGET_LAYOUT))));
    }

    @Override
    protected void map(ImmutableBytesWritable key, Result row, Context context)
        throws IOException, InterruptedException {
      for (KeyValue kv : RekeyedCells.of(rekeyer, row)) {
        context.write(
            new ImmutableBytesWritable(kv.getRowArray(), kv.getRowOffset(), kv.getRowLength()), kv);
      }
    }
  }
}

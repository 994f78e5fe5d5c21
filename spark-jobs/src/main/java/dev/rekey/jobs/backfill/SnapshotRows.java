package dev.rekey.jobs.backfill;

import dev.rekey.jobs.common.RekeyException;
import java.io.IOException;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.hadoop.hbase.mapreduce.TableInputFormat;
import org.apache.hadoop.hbase.mapreduce.TableMapReduceUtil;
import org.apache.hadoop.hbase.mapreduce.TableSnapshotInputFormat;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.RegionSplitter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The backfill's snapshot read: TableSnapshotInputFormat over a restore dir on the HBase root's filesystem (outside
 * the root), time range and families on the scan, block cache off; k splits per region. Close to remove the restore
 * dir. (The shared {@code RegionReader} does the same for every job; this stays private to backfill until it lands.)
 */
final class SnapshotRows implements AutoCloseable {
  private final JavaPairRDD<ImmutableBytesWritable, Result> rdd;
  private final Path restoreDir;
  private final Configuration conf;

  private SnapshotRows(JavaPairRDD<ImmutableBytesWritable, Result> rdd, Path restoreDir, Configuration conf) {
    this.rdd = rdd;
    this.restoreDir = restoreDir;
    this.conf = conf;
  }

  static SnapshotRows open(JavaSparkContext jsc, Configuration hbaseConf, String snapshot, Long from, Long to,
      List<String> families, int splitsPerRegion) throws IOException {
    if (jsc.getConf().getBoolean("spark.hadoopRDD.ignoreEmptySplits", true)) {
      // TableSnapshotInputFormat splits report length 0: Spark would drop every one and read nothing, silently
      throw RekeyException.usage("Cannot read snapshot " + snapshot + ": spark.hadoopRDD.ignoreEmptySplits is true, "
          + "so Spark would drop every snapshot split and read nothing (pass --conf spark.hadoopRDD.ignoreEmptySplits=false)");
    }
    Scan scan = new Scan();
    scan.setCacheBlocks(false);
    scan.setTimeRange(from != null ? from : 0L, to != null ? to : HConstants.LATEST_TIMESTAMP);
    for (String f : families) {
      scan.addFamily(Bytes.toBytes(f));
    }
    Job job = Job.getInstance(new Configuration(hbaseConf));
    Configuration c = job.getConfiguration();
    c.set(TableInputFormat.SCAN, TableMapReduceUtil.convertScanToString(scan));
    Path root = new Path(c.get(HConstants.HBASE_DIR));
    FileSystem fs = root.getFileSystem(c);
    // same filesystem as hbase.rootdir (the restore makes links into it), never under it
    Path restore = fs.makeQualified(new Path("/tmp/rekey-restore/" + snapshot + "-" + UUID.randomUUID()));
    if (splitsPerRegion > 1) {
      TableSnapshotInputFormat.setInput(job, snapshot, restore, new RegionSplitter.UniformSplit(), splitsPerRegion);
    } else {
      TableSnapshotInputFormat.setInput(job, snapshot, restore);
    }
    JavaPairRDD<ImmutableBytesWritable, Result> rdd = jsc.newAPIHadoopRDD(c, TableSnapshotInputFormat.class,
        ImmutableBytesWritable.class, Result.class);
    SnapshotRows rows = new SnapshotRows(rdd, restore, c);
    if (rdd.getNumPartitions() == 0) {
      rows.close();
      throw new RekeyException("Cannot read snapshot " + snapshot + ": it produced no input splits (check that the "
          + "snapshot has regions and that spark.hadoopRDD.ignoreEmptySplits=false)");
    }
    return rows;
  }

  JavaPairRDD<ImmutableBytesWritable, Result> rdd() {
    return rdd;
  }

  int partitions() {
    return rdd.getNumPartitions();
  }

  @Override
  public void close() throws IOException {
    FileSystem fs = restoreDir.getFileSystem(conf);
    fs.delete(restoreDir, true);
  }
}

package dev.rekey.bench;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.mapreduce.HFileOutputFormat2;
import org.apache.hadoop.mapreduce.Job;

/**
 * The benchmark floor's HFileOutputFormat2 configuration: each family's compression, bloom, block
 * size and encoding from the target's descriptor, files rolled below its max file size, committed
 * all at once at job end, marked excluded from minor compactions — the file settings the backfill's
 * own writer ({@code InOrderHFiles}) uses, through HBase's generic HFile output.
 */
final class HFileOutput {
  private HFileOutput() {}

  /** HFileOutputFormat2's switch for marking its files excluded from minor compactions. */
  static final String COMPACTION_EXCLUDE = "hbase.mapreduce.hfileoutputformat.compaction.exclude";

  static Configuration forTable(Configuration hbaseConf, TableDescriptor target)
      throws IOException {
    Job job = Job.getInstance(new Configuration(hbaseConf));
    HFileOutputFormat2.configureIncrementalLoadMap(job, target);
    Configuration out = job.getConfiguration();
    // tasks write files only; no region lookups from executors (the partitioning already follows
    // the regions)
    out.setBoolean(HFileOutputFormat2.LOCALITY_SENSITIVE_CONF_KEY, false);
    // v1: task output becomes visible only at job commit (a failed or speculative attempt leaves
    // nothing behind)
    out.setInt("mapreduce.fileoutputcommitter.algorithm.version", 1);
    // loaded files stay as loaded until a major compaction: the verification finds each one in the
    // store, and a
    // region's several bulk-load files are not rewritten by minor compactions while the migration
    // runs
    out.setBoolean(COMPACTION_EXCLUDE, true);
    if (target.getMaxFileSize() > 0) {
      out.setLong("hbase.hregion.max.filesize", target.getMaxFileSize());
    }
    return out;
  }
}

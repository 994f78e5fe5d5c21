package dev.rekey.jobs.backfill.write;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.regionserver.StoreUtils;
import org.apache.hadoop.hbase.util.BloomFilterUtil;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One bulk-load HFile of a target family: HBase's own {@link StoreFileWriter} with the family's
 * compression, bloom type, block size and data block encoding, as HFileOutputFormat2 would open it,
 * closed with the metadata HFileOutputFormat2 gives bulk-load files. The backfill's writer ({@link
 * InOrderHFiles}) opens its files here, and so do the benchmarks' floors.
 */
public final class TargetFileWriter {
  private TargetFileWriter() {}

  /** A writer of {@code family}'s cells into a new file under {@code familyDir}. */
  public static StoreFileWriter open(
      Configuration conf,
      FileSystem fs,
      Path familyDir,
      TableDescriptor target,
      ColumnFamilyDescriptor family)
      throws IOException {
    HFileContext ctx =
        new HFileContextBuilder()
            .withCompression(family.getCompressionType())
            .withDataBlockEncoding(family.getDataBlockEncoding())
            .withBlockSize(family.getBlocksize())
            .withChecksumType(StoreUtils.getChecksumType(conf))
            .withBytesPerCheckSum(StoreUtils.getBytesPerChecksum(conf))
            .withColumnFamily(family.getName())
            .withTableName(target.getTableName().getName())
            .withCreateTime(System.currentTimeMillis())
            .build();
    fs.mkdirs(familyDir);
    Configuration wc = conf;
    String prefixLength = family.getConfigurationValue(BloomFilterUtil.PREFIX_LENGTH_KEY);
    if (prefixLength != null) { // a ROWPREFIX_FIXED_LENGTH bloom's parameter, as the store has it
      wc = new Configuration(conf);
      wc.set(BloomFilterUtil.PREFIX_LENGTH_KEY, prefixLength);
    }
    return new StoreFileWriter.Builder(wc, CacheConfig.DISABLED, fs)
        .withOutputDir(familyDir)
        .withBloomType(family.getBloomFilterType())
        .withFileContext(ctx)
        .build();
  }

  /** Closes {@code w} with the bulk-load metadata of the task attempt that wrote it. */
  public static void close(StoreFileWriter w, long taskAttemptId) throws IOException {
    w.appendFileInfo(HStoreFile.BULKLOAD_TIME_KEY, Bytes.toBytes(System.currentTimeMillis()));
    w.appendFileInfo(HStoreFile.BULKLOAD_TASK_KEY, Bytes.toBytes(Long.toString(taskAttemptId)));
    w.appendFileInfo(HStoreFile.MAJOR_COMPACTION_KEY, Bytes.toBytes(true));
    // as HFileOutputFormat2's compaction.exclude: the loaded file stays as loaded until a major
    // compaction (the verification finds each one in the store)
    w.appendFileInfo(HStoreFile.EXCLUDE_FROM_MINOR_COMPACTION_KEY, Bytes.toBytes(true));
    w.appendTrackedTimestampsToMetadata();
    w.close();
  }
}

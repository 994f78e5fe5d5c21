package dev.rekey.jobs.common;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.Result;
import org.apache.spark.api.java.JavaRDD;

/** An opened region-parallel read: the rows, how many regions and partitions, and the restore dir to clean up. */
public final class RegionRead implements AutoCloseable {
  private final JavaRDD<Result> rows;
  private final int regions;
  private final int partitions;
  private final Path restoreDir;
  private final Configuration conf;

  RegionRead(JavaRDD<Result> rows, int regions, int partitions, Path restoreDir, Configuration conf) {
    this.rows = rows;
    this.regions = regions;
    this.partitions = partitions;
    this.restoreDir = restoreDir;
    this.conf = conf;
  }

  /** Whole rows, one partition per region (x splits per region), in key order within a partition. */
  public JavaRDD<Result> rows() {
    return rows;
  }

  public int regions() {
    return regions;
  }

  public int partitions() {
    return partitions;
  }

  /** Removes the snapshot restore dir (it is not cleaned up by HBase). */
  @Override
  public void close() {
    if (restoreDir == null) {
      return;
    }
    try {
      restoreDir.getFileSystem(conf).delete(restoreDir, true);
    } catch (IOException e) {
      throw new RekeyException("Could not remove the snapshot restore dir " + restoreDir + ": " + e.getMessage()
          + " (remove it by hand)", e);
    }
  }
}

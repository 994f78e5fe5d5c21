package dev.rekey.bench;

import dev.rekey.jobs.backfill.write.TargetFileWriter;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The HFile write of the backfill floors ({@link WriteFloor}): rows in the order they come, each
 * row into one of {@code shards} files by a hash of its key — the shape of the in-order salting
 * write, one file per target region per task, without computing a target key — each file opened and
 * closed as the backfill's own ({@link TargetFileWriter}: the target family's settings, bulk-load
 * metadata). The target's first family only (the benches' targets have one).
 */
final class FloorFiles {
  private final Configuration conf;
  private final FileSystem fs;
  private final Path dir;
  private final TableDescriptor target;
  private final ColumnFamilyDescriptor family;
  private final StoreFileWriter[] writers;
  private int shard;
  private long cells;

  FloorFiles(Configuration conf, Path dir, TableDescriptor target, int shards) throws IOException {
    this.conf = conf;
    this.fs = dir.getFileSystem(conf);
    this.dir = dir;
    this.target = target;
    this.family = target.getColumnFamilies()[0];
    this.writers = new StoreFileWriter[shards];
  }

  /** The next cells are of the row {@code key}. */
  void row(byte[] key, int offset, int length) {
    shard = (Bytes.hashCode(key, offset, length) & Integer.MAX_VALUE) % writers.length;
  }

  void append(Cell c) throws IOException {
    StoreFileWriter w = writers[shard];
    if (w == null) {
      w = writers[shard] = TargetFileWriter.open(conf, fs, dir, target, family);
    }
    w.append(c);
    cells++;
  }

  /** Closes every file; returns the cells written. */
  long close() throws IOException {
    for (StoreFileWriter w : writers) {
      if (w != null) {
        TargetFileWriter.close(w, 0);
      }
    }
    return cells;
  }
}

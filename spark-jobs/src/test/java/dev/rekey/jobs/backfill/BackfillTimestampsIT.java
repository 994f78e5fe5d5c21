package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.RekeyException;
import dev.rekey.testing.SharedHBase;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Negative timestamps on the embedded server. HBase refuses them on write (a Put throws), but an
 * HFile written by HBase's own HFile writer and bulk-loaded puts them in a table, which no scan can
 * then read past: the backfill of its snapshot fails naming the cause, loading nothing.
 */
@Tag("e2e")
class BackfillTimestampsIT {
  @Test
  void aNegativeTimestampInABulkLoadedHFileFailsTheReadNamingItAndLoadsNothing() throws Exception {
    byte[] d = BackfillShapesIT.D;
    TableName source =
        BackfillShapesIT.table(
            "bf_negts_v1", ColumnFamilyDescriptorBuilder.newBuilder(d).setMaxVersions(3).build());
    TableName target =
        BackfillShapesIT.table(
            "bf_negts_v2", ColumnFamilyDescriptorBuilder.newBuilder(d).setMaxVersions(3).build());
    List<Put> normal = BackfillShapesIT.rows(10, 20, 41);
    BackfillShapesIT.put(source, normal);
    byte[] neg = new byte[128];
    byte[] mixed = new byte[128];
    neg[0] = 1;
    mixed[0] = 2;
    Configuration conf = SharedHBase.conf();
    Path dir = new Path(SharedHBase.runRoot().resolve("negts-" + System.nanoTime()).toUri());
    FileSystem fs = dir.getFileSystem(conf);
    Path file = new Path(new Path(dir, "d"), "negative");
    try (HFile.Writer w =
        HFile.getWriterFactory(conf, CacheConfig.DISABLED)
            .withPath(fs, file)
            .withFileContext(new HFileContextBuilder().build())
            .create()) {
      w.append(new KeyValue(neg, d, Bytes.toBytes("q"), -5L, Bytes.toBytes("minus five")));
      w.append(new KeyValue(mixed, d, Bytes.toBytes("q"), 7L, Bytes.toBytes("seven")));
      w.append(new KeyValue(mixed, d, Bytes.toBytes("q"), -1L, Bytes.toBytes("minus one")));
    }
    // HBase's own writer wrote it and the bulk load took it; from here no scan of the region
    // (RegionServer or snapshot reader) gets past the file
    BulkLoadHFiles.create(conf).bulkLoad(source, dir);
    String snap = BackfillShapesIT.snapshot(source);
    Exception e = BackfillShapesIT.failure(BackfillShapesIT.blobCopy(snap, target).build());
    Throwable named = e;
    while (named != null && !(named instanceof RekeyException)) {
      named = named.getCause();
    }
    assertTrue(named != null, "a RekeyException in the causes: " + e);
    assertEquals(
        "Cannot read snapshot "
            + snap
            + ": a store file holds a cell with a negative timestamp (ts=-5), which HBase refuses"
            + " to read",
        named.getMessage().substring(0, named.getMessage().indexOf(" (no client")));
    assertEquals(null, named.getCause(), "the last line printed is this message (ErrorLine)");
    assertEquals(0, BackfillShapesIT.rows(target), "nothing loaded");
  }
}

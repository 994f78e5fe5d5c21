package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.testing.TableContents;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A staging disk that fills during the write although the pre-flight found room: the source is
 * gzip-compressed (its snapshot is small) and the target family is not (its HFiles are 40 times
 * larger), staged on a real 1 MB tmpfs.
 */
@Tag("e2e")
class BackfillDiskFullIT {
  @Test
  void aStagingDiskFillingMidWriteFailsNamingTheCauseLoadsNothingAndARerunCompletes()
      throws Exception {
    TableName source =
        BackfillShapesIT.table(
            "bf_full_v1",
            ColumnFamilyDescriptorBuilder.newBuilder(BackfillShapesIT.D)
                .setCompressionType(Compression.Algorithm.GZ)
                .build());
    TableName target =
        BackfillShapesIT.table("bf_full_v2", ColumnFamilyDescriptorBuilder.of(BackfillShapesIT.D));
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      byte[] key = new byte[128];
      Bytes.putInt(key, 0, i);
      puts.add(
          new Put(key)
              .addColumn(BackfillShapesIT.D, Bytes.toBytes("q"), 1000L + i, new byte[4096]));
    }
    BackfillShapesIT.put(source, puts);
    String snap = BackfillShapesIT.snapshot(source);

    try (Tmpfs mount = Tmpfs.mount("faults-fill", "1m")) {
      Path staging = mount.dir.resolve("staging");
      Exception e =
          BackfillShapesIT.failure(
              BackfillShapesIT.blobCopy(snap, target).staging(staging.toString()).build());
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      // the CLI's last line is the first line of this and of the innermost cause (ErrorLine, row
      // 25)
      assertTrue(
          String.valueOf(root.getMessage()).contains("No space left on device"),
          "innermost cause: " + root + " of " + e);
      assertEquals(0, BackfillShapesIT.rows(target), "nothing loaded");
    }

    BackfillResult r = BackfillShapesIT.runIn(BackfillShapesIT.blobCopy(snap, target).build());
    assertTrue(r.verified());
    assertEquals(
        TableContents.byNaturalKey(source, BackfillShapesIT.BLOB),
        TableContents.byNaturalKey(target, BackfillShapesIT.BLOB));
  }
}

package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.jobs.backfill.staging.RegionEntry;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import dev.rekey.testing.TableContents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Both write paths — in source order (no shuffle) and sorted — write HFiles with the target
 * family's compression, bloom type, data block encoding and block size, within the bulk-load file
 * limit, and load the same cells.
 */
@Tag("e2e")
class BackfillPathsIT {
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void hfilesCarryTheTargetFamilySettingsAndBothPathsLoadEveryCell(boolean sortAlways)
      throws Exception {
    BackfillFixture f =
        new BackfillFixture(
            sortAlways ? "bfp_sort" : "bfp_order",
            6_000,
            12,
            1,
            "d:compression=gz,bloom=rowcol,encoding=fast_diff,blocksize=1024");
    f.snapshot();
    BackfillResult written =
        new Backfill(
                SharedSpark.session(),
                SharedHBase.conf(),
                f.options().sortAlways(sortAlways).noLoad(true).build())
            .execute();
    assertEquals(
        !sortAlways,
        written.writePath().startsWith("written in source order"),
        written.writePath());

    Configuration conf = SharedHBase.conf();
    FileSystem fs = FileSystem.getLocal(conf);
    List<Path> files;
    try (Stream<Path> s = Files.walk(f.staging.resolve("regions"))) {
      files =
          s.filter(Files::isRegularFile)
              .filter(p -> !p.getFileName().toString().startsWith("."))
              .toList();
    }
    assertEquals(written.filesWritten(), files.size());
    for (RegionEntry r : written.regions()) {
      assertTrue(
          r.files() >= 1 && r.files() <= 32, "files per region within the bulk-load limit: " + r);
    }
    for (Path p : files) {
      try (HFile.Reader r =
          HFile.createReader(
              fs, new org.apache.hadoop.fs.Path(p.toUri()), CacheConfig.DISABLED, true, conf)) {
        assertEquals(Compression.Algorithm.GZ, r.getFileContext().getCompression(), p.toString());
        assertEquals(DataBlockEncoding.FAST_DIFF, r.getDataBlockEncoding(), p.toString());
        // the block size is a writer setting, not stored in the file: its data blocks show it (1
        // KB, not 64 KB)
        long bytes = r.getTrailer().getTotalUncompressedBytes();
        int blocks = r.getTrailer().getDataIndexCount();
        assertTrue(
            bytes < 4096 || bytes / blocks < 2048,
            p + ": " + bytes + " bytes in " + blocks + " data blocks");
        assertEquals(
            BloomType.ROWCOL.name(),
            Bytes.toString(r.getHFileInfo().get(HStoreFile.BLOOM_FILTER_TYPE_KEY)));
        assertTrue(
            r.getHFileInfo().get(HStoreFile.BULKLOAD_TIME_KEY) != null,
            "marked as a bulk-load file");
      }
    }
    BackfillResult loaded =
        new Backfill(
                SharedSpark.session(),
                SharedHBase.conf(),
                f.options().sortAlways(sortAlways).resume(true).build())
            .execute();
    assertTrue(loaded.verified(), loaded.lines().toString());
    assertFalse(Files.exists(f.staging.resolve("attempts")), "no attempt dir is left behind");
    assertEquals(
        TableContents.byNaturalKey(f.source, V1), TableContents.byNaturalKey(f.target, V2));
  }
}

package dev.rekey.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HBaseFileTimeRange;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileWriter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which store files a window skips: real HFiles written by HBase's StoreFileWriter (Puts, and the
 * delete markers that mask cells older than themselves), the decision held to HBase's own {@code
 * StoreFileReader.passesTimerangeFilter} for every window and TTL edge.
 */
class StoreFilesTest {
  private static final byte[] D = Bytes.toBytes("d");
  private static final byte[] Q = Bytes.toBytes("q");

  @TempDir Path dir;

  private final Configuration conf = new Configuration();

  private static KeyValue cell(String row, long ts, KeyValue.Type type) {
    return new KeyValue(
        Bytes.toBytes(row),
        D,
        type == KeyValue.Type.DeleteFamily ? null : Q,
        ts,
        type,
        type == KeyValue.Type.Put ? Bytes.toBytes(ts) : null);
  }

  /**
   * An HFile of these cells, with its TIMERANGE unless {@code timeRange} is false; opened. Its
   * directory is the label (HBase takes only hex names for store files).
   */
  private HStoreFile file(String label, boolean timeRange, KeyValue... cells) throws Exception {
    FileSystem fs = FileSystem.getLocal(conf);
    java.nio.file.Files.createDirectories(dir.resolve(label));
    org.apache.hadoop.fs.Path p =
        new org.apache.hadoop.fs.Path(
            dir.resolve(label)
                .resolve(java.util.UUID.randomUUID().toString().replace("-", ""))
                .toUri());
    List<Cell> sorted = new ArrayList<>(List.of(cells));
    sorted.sort(CellComparator.getInstance());
    StoreFileWriter w =
        new StoreFileWriter.Builder(conf, CacheConfig.DISABLED, fs)
            .withFilePath(p)
            .withFileContext(new HFileContextBuilder().build())
            .build();
    for (Cell c : sorted) {
      w.append(c);
    }
    if (timeRange) {
      w.appendMetadata(1, false);
    }
    w.close();
    HStoreFile f = new HStoreFile(fs, p, conf, CacheConfig.DISABLED, BloomType.NONE, true);
    f.initReader();
    return f;
  }

  @Test
  void aFileIsSkippedExactlyWhenHBaseWouldNotUseItsScanner() throws Exception {
    List<HStoreFile> files =
        List.of(
            file(
                "puts",
                true,
                cell("a", 1_000, KeyValue.Type.Put),
                cell("b", 1_999, KeyValue.Type.Put)),
            file("one", true, cell("a", 1_500, KeyValue.Type.Put)),
            file(
                "column-marker",
                true,
                cell("a", 3_000, KeyValue.Type.Put),
                cell("b", 5_000, KeyValue.Type.DeleteColumn)),
            file("family-marker", true, cell("c", 5_000, KeyValue.Type.DeleteFamily)),
            file(
                "version-marker",
                true,
                cell("a", 3_000, KeyValue.Type.Put),
                cell("b", 5_000, KeyValue.Type.Delete)),
            file("no-timerange", false, cell("a", 1_000, KeyValue.Type.Put)));
    long[] edges = {0, 999, 1_000, 1_001, 1_499, 1_500, 1_501, 1_999, 2_000, 3_000, 5_000, 5_001};
    long[] ttls = {Long.MIN_VALUE, 1_500, 2_000, 5_000, 5_001};
    int compared = 0;
    for (HStoreFile f : files) {
      for (long from : edges) {
        for (long to : edges) {
          if (to <= from) {
            continue;
          }
          for (long oldest : ttls) {
            TimeRange w = TimeRange.between(from, to);
            assertEquals(
                HBaseFileTimeRange.passes(f, w, oldest),
                StoreFiles.mayHold(f, w, oldest),
                f.getPath().getParent().getName() + " window " + w + " oldest unexpired " + oldest);
            compared++;
          }
        }
      }
      TimeRange all = TimeRange.allTime();
      assertEquals(
          HBaseFileTimeRange.passes(f, all, Long.MIN_VALUE),
          StoreFiles.mayHold(f, all, Long.MIN_VALUE));
      f.closeStoreFile(false);
    }
    assertTrue(compared > 1_000, "compared " + compared);
  }

  @Test
  void markersThatMaskOlderCellsKeepTheirFileInEveryEarlierWindow() throws Exception {
    HStoreFile puts =
        file(
            "puts", true, cell("a", 1_000, KeyValue.Type.Put), cell("b", 1_999, KeyValue.Type.Put));
    HStoreFile column = file("column", true, cell("b", 5_000, KeyValue.Type.DeleteColumn));
    HStoreFile family = file("family", true, cell("c", 5_000, KeyValue.Type.DeleteFamily));
    HStoreFile version = file("version", true, cell("b", 5_000, KeyValue.Type.Delete));
    HStoreFile none = file("none", false, cell("a", 1_000, KeyValue.Type.Put));
    TimeRange day = TimeRange.between(1_000, 2_000);
    TimeRange before = TimeRange.between(0, 1_000);
    TimeRange after = TimeRange.between(2_000, 3_000);
    long forever = Long.MIN_VALUE;
    assertTrue(StoreFiles.mayHold(puts, day, forever));
    assertFalse(StoreFiles.mayHold(puts, before, forever), "the window ends at its first cell");
    assertFalse(StoreFiles.mayHold(puts, after, forever), "the window starts after its last cell");
    assertFalse(StoreFiles.mayHold(puts, day, 2_000), "every cell past the family's TTL");
    // a column or family marker masks every older version: its file reaches down to time 0
    assertTrue(StoreFiles.mayHold(column, day, forever));
    assertTrue(StoreFiles.mayHold(family, before, forever));
    assertFalse(StoreFiles.mayHold(family, TimeRange.between(5_001, 6_000), forever));
    // a version marker masks one timestamp, its own: outside the window, so is its file
    assertFalse(StoreFiles.mayHold(version, day, forever));
    assertTrue(StoreFiles.mayHold(version, TimeRange.between(5_000, 5_001), forever));
    assertTrue(StoreFiles.mayHold(none, after, forever), "no TIMERANGE: the file is read");
    for (HStoreFile f : List.of(puts, column, family, version, none)) {
      f.closeStoreFile(false);
    }
  }

  @Test
  void factsAddUp() {
    StoreFiles f = StoreFiles.NONE.readOne(100).skippedOne(40).skippedOne(2);
    assertEquals(new StoreFiles(1, 100, 2, 42), f);
    assertEquals(new StoreFiles(2, 200, 4, 84), f.plus(f));
    assertEquals("{read=1, bytesRead=100, skipped=2, bytesSkipped=42}", f.toMap().toString());
  }
}

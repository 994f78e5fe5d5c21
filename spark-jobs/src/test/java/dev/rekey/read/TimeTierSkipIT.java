package dev.rekey.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A window read of a snapshot whose files are split by time returns the same cells whether the
 * reader skips the files outside the window or opens every one — and the same as the live table's
 * RegionServer — with versions of one column spread over several files and delete markers in files
 * newer than the window (which must not be skipped when they mask the window's cells).
 */
@Tag("e2e")
class TimeTierSkipIT {
  private static final byte[] D = Bytes.toBytes("d");
  private static final byte[] M = Bytes.toBytes("m");
  private static final byte[] V = Bytes.toBytes("v");
  private static final byte[] X = Bytes.toBytes("x");

  /** The window: "day 2", timestamps [2000, 3000); day k's cells are stamped k * 1000 + row. */
  private static final long FROM = 2_000;

  private static final long TO = 3_000;

  private static TableName table;
  private static String snapshot;

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("r%02d", i));
  }

  /**
   * Two regions (split at r30), compactions off, one flush per "day": family d (VERSIONS 3) and m.
   *
   * <pre>
   * day 1  d:v and m:x of r00..r39                     outside the window: skipped
   * day 2  d:v and m:x of r00..r39, d:v of r40..r49    the window (newer versions of day 1's)
   * day 3  d:v and m:x of r00..r19                     newer versions, outside: skipped
   * day 4  DeleteColumn r05 d:v @4000, DeleteFamily r06 m @4000: they mask day 2's cells, and
   *        HBase records such a file as reaching down to time 0: read
   * day 5  version Delete r07 d:v @2007 (masks exactly day 2's cell), Put r50 @5000: the marker is
   *        in the window, the file read (region 0); region 1's file holds r50 only: skipped
   * day 6  Puts d:v @6000+ of r00..r09, version Deletes r08 @6008 and r35 @6035 (they mask
   *        nothing of the window): skipped
   * </pre>
   */
  @BeforeAll
  static void tableWithOneFilePerDay() throws Exception {
    table = SharedHBase.uniqueTable("tiers");
    try (Admin admin = SharedHBase.connection().getAdmin();
        Table t = SharedHBase.connection().getTable(table)) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(table)
              .setCompactionEnabled(false) // the files stay one per day
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(D).setMaxVersions(3).build())
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(M))
              .build(),
          new byte[][] {row(30)});
      puts(t, 1, 0, 40, true);
      admin.flush(table);
      puts(t, 2, 0, 40, true);
      puts(t, 2, 40, 50, false);
      admin.flush(table);
      puts(t, 3, 0, 20, true);
      admin.flush(table);
      t.delete(new Delete(row(5)).addColumns(D, V, 4_000));
      t.delete(new Delete(row(6)).addFamily(M, 4_000));
      admin.flush(table);
      t.delete(new Delete(row(7)).addColumn(D, V, 2_007));
      t.put(new Put(row(50)).addColumn(D, V, 5_000, Bytes.toBytes("late")));
      admin.flush(table);
      puts(t, 6, 0, 10, false);
      t.delete(new Delete(row(8)).addColumn(D, V, 6_008));
      t.delete(new Delete(row(35)).addColumn(D, V, 6_035));
      admin.flush(table);
      snapshot = table.getNameAsString() + "_snap";
      admin.snapshot(snapshot, table);
    }
  }

  private static void puts(Table t, int day, int from, int to, boolean withM) throws Exception {
    List<Put> puts = new ArrayList<>();
    for (int i = from; i < to; i++) {
      long ts = day * 1_000L + i;
      Put p = new Put(row(i)).addColumn(D, V, ts, Bytes.toBytes("d" + day));
      if (withM) {
        p.addColumn(M, X, ts, Bytes.toBytes("m" + day));
      }
      puts.add(p);
    }
    t.put(puts);
  }

  private static JavaSparkContext jsc() {
    return JavaSparkContext.fromSparkContext(SharedSpark.session().sparkContext());
  }

  /** A snapshot read's cells (folded: streamed where the reader can) and its per-region scans. */
  private record Read(List<String> cells, List<RegionScan> scans) {}

  private static Read read(UnaryOperator<RegionReader> options, boolean skip) {
    Configuration conf = new Configuration(SharedHBase.conf());
    conf.setBoolean(StoreFiles.SKIP_BY_TIME, skip);
    try (RegionRead read =
        options.apply(RegionReader.snapshot(snapshot).timeRange(FROM, TO)).open(jsc(), conf)) {
      List<String> out = new ArrayList<>();
      read.fold(p -> new StoreFileRowsIT.CellStrings()).collect().forEach(out::addAll);
      out.sort(null);
      return new Read(out, read.regionScans());
    }
  }

  /** The live table's cells in the window, as its RegionServer returns them. */
  private static List<String> live(int versions) throws Exception {
    List<String> out = new ArrayList<>();
    try (Table t = SharedHBase.connection().getTable(table);
        ResultScanner s = t.getScanner(new Scan().setTimeRange(FROM, TO).readVersions(versions))) {
      for (Result r : s) {
        for (Cell c : r.rawCells()) {
          out.add(StoreFileRowsIT.describe(c));
        }
      }
    }
    out.sort(null);
    return out;
  }

  private static String hex(String value) {
    return Bytes.toHex(Bytes.toBytes(value));
  }

  private static List<StoreFiles> files(Read r) {
    return r.scans().stream().map(RegionScan::storeFiles).toList();
  }

  @Test
  void skippingFilesOutsideTheWindowReturnsWhatReadingEveryFileReturns() throws Exception {
    for (int versions : new int[] {1, Integer.MAX_VALUE}) {
      for (int k : new int[] {1, 2}) {
        UnaryOperator<RegionReader> o = r -> r.versions(versions).splitsPerRegion(k);
        Read skipping = read(o, true);
        Read every = read(o, false);
        String what = "versions " + versions + ", " + k + " split(s) per region";
        assertEquals(every.cells(), skipping.cells(), what);
        assertEquals(live(versions), skipping.cells(), what + ": the RegionServer's answer");
        // region 0: d's days 1, 3, 6 skipped (2, 4, 5 read), m's days 1, 3 (2, 4 read);
        // region 1: d's days 1, 5, 6 (2 read), m's day 1 (2 read)
        List<StoreFiles> skipped = files(skipping);
        assertEquals(List.of(5, 2), skipped.stream().map(StoreFiles::read).toList(), what);
        assertEquals(List.of(5, 4), skipped.stream().map(StoreFiles::skipped).toList(), what);
        List<StoreFiles> all = files(every);
        assertEquals(List.of(10, 6), all.stream().map(StoreFiles::read).toList(), what);
        assertEquals(List.of(0, 0), all.stream().map(StoreFiles::skipped).toList(), what);
        for (int i = 0; i < 2; i++) {
          assertEquals(
              all.get(i).bytesRead(),
              skipped.get(i).bytesRead() + skipped.get(i).bytesSkipped(),
              what + ": region " + i + "'s bytes");
          assertTrue(skipped.get(i).bytesSkipped() > 0, what);
        }
      }
    }
    List<String> cells = read(r -> r.versions(Integer.MAX_VALUE), true).cells();
    // what the markers in files newer than the window did to it
    assertFalse(cells.stream().anyMatch(c -> c.startsWith("r05/d:v/")), "DeleteColumn @4000");
    assertFalse(cells.stream().anyMatch(c -> c.startsWith("r06/m:")), "DeleteFamily @4000");
    assertFalse(cells.contains("r07/d:v/2007=" + hex("d2")), "version Delete @2007");
    assertTrue(
        cells.contains("r08/d:v/2008=" + hex("d2")), "a version Delete @6008 masks only 6008");
    assertTrue(
        cells.contains("r35/d:v/2035=" + hex("d2")), "a version Delete @6035 masks only 6035");
    // versions straddling files: day 2's cell is the newest in the window, whatever is newer
    assertTrue(
        cells.contains("r00/d:v/2000=" + hex("d2")) && cells.contains("r00/m:x/2000=" + hex("m2")),
        "r00");
    assertEquals(50 + 40 - 3, cells.size(), "d:v of r00..r49, m:x of r00..r39, less r05-r07's");
  }

  @Test
  void aWindowNoFileCanHoldSkipsEveryFileAndReadsNothing() {
    Read r = read(r0 -> r0.timeRange(7_000, 8_000), true);
    assertTrue(r.cells().isEmpty(), r.cells().toString());
    // day 4's markers reach down to time 0, not up past 4000: every file is skipped
    assertEquals(List.of(0, 0), files(r).stream().map(StoreFiles::read).toList());
    assertEquals(List.of(10, 6), files(r).stream().map(StoreFiles::skipped).toList());
  }
}

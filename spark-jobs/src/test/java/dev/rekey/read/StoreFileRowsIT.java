package dev.rekey.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.rowkey.KeyRange;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Snapshot regions read from their store files return exactly what HBase's own snapshot reader
 * returns — every cell, version and timestamp, a family's files merged newest first — and hand over
 * to it at delete markers.
 */
@Tag("e2e")
class StoreFileRowsIT {
  private static final byte[] D = Bytes.toBytes("d");
  private static final byte[] M = Bytes.toBytes("m");
  private static final int ROWS = 1_000;

  private static JavaSparkContext jsc() {
    return JavaSparkContext.fromSparkContext(SharedSpark.session().sparkContext());
  }

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("r%04d", i));
  }

  /**
   * A two-region table, families d (VERSIONS 5) and m: four versions of d:v, one of m:x, d:w on
   * every third row.
   */
  private static TableName table(String name) throws Exception {
    TableName t = SharedHBase.uniqueTable(name);
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(t)
              .setColumnFamily(
                  ColumnFamilyDescriptorBuilder.newBuilder(D).setMaxVersions(5).build())
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(M))
              .build(),
          new byte[][] {row(ROWS / 2)});
    }
    try (Table table = SharedHBase.connection().getTable(t)) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        Put p = new Put(row(i));
        for (long ts = 1; ts <= 4; ts++) {
          p.addColumn(D, Bytes.toBytes("v"), 1_000 * ts + i, Bytes.toBytes(i * 10 + ts));
        }
        p.addColumn(M, Bytes.toBytes("x"), 7_000, Bytes.toBytes("m" + i));
        if (i % 3 == 0) {
          p.addColumn(D, Bytes.toBytes("w"), 2_500, Bytes.toBytes("w" + i));
        }
        puts.add(p);
      }
      table.put(puts);
    }
    return t;
  }

  private static String snapshot(TableName t) throws Exception {
    String s = t.getNameAsString() + "_snap";
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.flush(t);
      admin.snapshot(s, t);
    }
    return s;
  }

  /** Every cell the read returns, as row/family:qualifier/ts=value, sorted. */
  private static List<String> cells(
      String snapshot, UnaryOperator<RegionReader> options, boolean fromFiles) {
    try (RegionRead read =
        options.apply(RegionReader.snapshot(snapshot)).open(jsc(), conf(fromFiles))) {
      List<String> out =
          new ArrayList<>(
              read.rows()
                  .flatMap(
                      r -> {
                        List<String> cs = new ArrayList<>();
                        for (Cell c : r.rawCells()) {
                          cs.add(describe(c));
                        }
                        return cs.iterator();
                      })
                  .collect());
      out.sort(null);
      return out;
    }
  }

  /** The same read folded: every cell streamed into a sink, sorted. */
  private static List<String> foldedCells(
      String snapshot, UnaryOperator<RegionReader> options, boolean fromFiles) {
    try (RegionRead read =
        options.apply(RegionReader.snapshot(snapshot)).open(jsc(), conf(fromFiles))) {
      List<String> out = new ArrayList<>();
      read.fold(p -> new CellStrings()).collect().forEach(out::addAll);
      out.sort(null);
      assertCountedPerRegion(read, out);
      return out;
    }
  }

  /**
   * The same read mapped: each row handed on as a record at its end, so the read pauses after every
   * row; every cell, sorted.
   */
  private static List<String> mappedCells(
      String snapshot, UnaryOperator<RegionReader> options, boolean fromFiles) {
    try (RegionRead read =
        options.apply(RegionReader.snapshot(snapshot)).open(jsc(), conf(fromFiles))) {
      List<String> out = new ArrayList<>();
      read.<List<String>>map(
              (p, records) ->
                  new PartitionMap.Sink() {
                    private final CellStrings row = new CellStrings();

                    @Override
                    public void startRow(byte[] k) {
                      row.startRow(k);
                    }

                    @Override
                    public void cell(Cell c) {
                      row.cell(c);
                    }

                    @Override
                    public void endRow() {
                      row.endRow();
                      records.accept(new ArrayList<>(row.result()));
                      row.result().clear();
                    }

                    @Override
                    public void dropRow() {
                      row.dropRow();
                    }

                    @Override
                    public void finish() {}
                  })
          .collect()
          .forEach(out::addAll);
      out.sort(null);
      assertCountedPerRegion(read, out);
      return out;
    }
  }

  /**
   * Each region's rows scanned (summary.json's count) are the rows of {@code cells} in it: rows
   * streamed from the files and rows from HBase's reader after a hand-over are each counted once.
   */
  private static void assertCountedPerRegion(RegionRead read, List<String> cells) {
    java.util.Set<String> rows = new java.util.TreeSet<>();
    for (String c : cells) {
      rows.add(c.substring(0, c.indexOf('/')));
    }
    for (RegionScan r : read.regionScans()) {
      KeyRange region = new KeyRange(Bytes.fromHex(r.startHex()), Bytes.fromHex(r.endHex()));
      long in = rows.stream().map(Bytes::toBytes).filter(region::contains).count();
      assertEquals(in, r.rowsScanned(), "rows scanned in region " + r.region());
    }
  }

  private static Configuration conf(boolean fromFiles) {
    Configuration conf = new Configuration(SharedHBase.conf());
    conf.setBoolean(StoreFileRows.ENABLED, fromFiles);
    return conf;
  }

  /** A cell as row/family:qualifier/ts=value hex. */
  static String describe(Cell c) {
    return Bytes.toString(CellUtil.cloneRow(c))
        + "/"
        + Bytes.toString(CellUtil.cloneFamily(c))
        + ":"
        + Bytes.toString(CellUtil.cloneQualifier(c))
        + "/"
        + c.getTimestamp()
        + "="
        + Bytes.toHex(CellUtil.cloneValue(c));
  }

  /** A fold's sink that keeps each ended row's cells as text, and marks a cell of another row. */
  static final class CellStrings implements PartitionFold.Sink<List<String>> {
    private final List<String> out = new ArrayList<>();
    private final List<String> row = new ArrayList<>();
    private byte[] key;

    @Override
    public void startRow(byte[] k) {
      key = k.clone();
      row.clear();
    }

    @Override
    public void cell(Cell c) {
      row.add(
          CellUtil.matchingRows(c, key) ? describe(c) : "a cell outside its row: " + describe(c));
    }

    @Override
    public void endRow() {
      out.addAll(row);
      row.clear();
    }

    @Override
    public void dropRow() {
      row.clear();
    }

    @Override
    public List<String> result() {
      return out;
    }
  }

  /**
   * The read from store files equals HBase's, as rows and folded (streamed as cells, from files and
   * from HBase's reader); returns how many rows the Result read took from files.
   */
  private static long sameAsHBase(String snapshot, UnaryOperator<RegionReader> options) {
    List<String> hbase = cells(snapshot, options, false);
    List<String> files;
    long fromFiles;
    try (SplitReads reads = SplitReads.capture()) {
      files = cells(snapshot, options, true);
      fromFiles = reads.rowsFromFiles();
    }
    assertEquals(hbase, files);
    assertTrue(!hbase.isEmpty(), "the read returns cells");
    assertEquals(hbase, foldedCells(snapshot, options, true), "folded from the files");
    assertEquals(hbase, foldedCells(snapshot, options, false), "folded from HBase's reader");
    assertEquals(hbase, mappedCells(snapshot, options, true), "mapped a row at a time, files");
    assertEquals(hbase, mappedCells(snapshot, options, false), "mapped from HBase's reader");
    return fromFiles;
  }

  @Test
  void oneFilePerFamilyIsReadFromTheFilesWithHBasesVersionsTimeRangesAndFamilies()
      throws Exception {
    TableName t = table("sfr_plain");
    String s = snapshot(t);
    // the family now keeps 2 versions; its files (and the second snapshot's) still hold 4
    String narrowed = t.getNameAsString() + "_snap2";
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.modifyColumnFamily(
          t, ColumnFamilyDescriptorBuilder.newBuilder(D).setMaxVersions(2).build());
      admin.snapshot(narrowed, t);
    }
    try (SplitReads reads = SplitReads.capture()) {
      assertEquals(ROWS, sameAsHBase(s, r -> r.versions(Integer.MAX_VALUE)));
      assertEquals(ROWS, sameAsHBase(narrowed, r -> r.versions(Integer.MAX_VALUE)));
      assertEquals(ROWS, sameAsHBase(s, r -> r.versions(1)));
      assertEquals(ROWS, sameAsHBase(s, r -> r.versions(3).timeRange(2_000, 4_000)));
      assertEquals(ROWS, sameAsHBase(s, r -> r.families(List.of("m")).splitsPerRegion(3)));
      assertEquals(0, reads.handedOver(), "no split handed to HBase");
    }
    assertEquals(
        2 * ROWS + ROWS / 3 + 1,
        cells(narrowed, r -> r.versions(Integer.MAX_VALUE).families(List.of("d")), true).size(),
        "d:v keeps 2 of its 4 versions under the snapshot's VERSIONS 2");
  }

  @Test
  void deleteMarkersHandTheRestOfTheSplitToHBaseFromTheirRow() throws Exception {
    TableName t = table("sfr_deletes");
    try (Table table = SharedHBase.connection().getTable(t)) {
      // in the memstore with the puts: one flush writes the markers into the same file
      table.delete(new Delete(row(100)).addColumns(D, Bytes.toBytes("v"), 3_100)); // older v's
      table.delete(new Delete(row(200)).addColumn(D, Bytes.toBytes("v"), 4_200)); // one version
      table.delete(new Delete(row(300)).addFamily(M)); // a family
      table.delete(new Delete(row(700))); // a row, in the second region
    }
    String s = snapshot(t);
    try (SplitReads reads = SplitReads.capture()) {
      long fromFiles = sameAsHBase(s, r -> r.versions(Integer.MAX_VALUE));
      assertTrue(fromFiles >= 100 && fromFiles < ROWS, "rows before each region's first marker");
      assertTrue(reads.handedOver() >= 2, "each region handed over");
    }
    // one family in one file: folded and mapped reads stream its cells and hand over mid-split
    long streamedFamily = sameAsHBase(s, r -> r.versions(Integer.MAX_VALUE).families(List.of("d")));
    assertTrue(streamedFamily >= 100 && streamedFamily < ROWS, "d's rows before its first marker");
  }

  @Test
  void aFamilyOfSeveralFilesIsMergedNewestFileFirst() throws Exception {
    TableName t = table("sfr_twofiles");
    try (Admin admin = SharedHBase.connection().getAdmin();
        Table table = SharedHBase.connection().getTable(t)) {
      admin.flush(t);
      // in a second file: a newer version of some cells, and the same version again with another
      // value (the newer file's wins, as in HBase's merge)
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < ROWS; i += 7) {
        puts.add(
            new Put(row(i))
                .addColumn(D, Bytes.toBytes("v"), 9_000, Bytes.toBytes(-i))
                .addColumn(D, Bytes.toBytes("v"), 1_000 + i, Bytes.toBytes("again")));
      }
      table.put(puts);
    }
    String s = snapshot(t);
    try (SplitReads reads = SplitReads.capture()) {
      assertEquals(ROWS, sameAsHBase(s, r -> r.versions(2)));
      assertEquals(ROWS, sameAsHBase(s, r -> r.versions(Integer.MAX_VALUE)));
      assertEquals(0, reads.handedOver(), "no split handed to HBase");
    }
    assertTrue(
        cells(s, r -> r.versions(Integer.MAX_VALUE), true)
            .contains("r0007/d:v/1007=" + Bytes.toHex(Bytes.toBytes("again"))),
        "the second file's cell of the same version");
  }

  @Test
  void aDeleteInANewerFileHandsOverFromItsRow() throws Exception {
    TableName t = table("sfr_laterdelete");
    try (Admin admin = SharedHBase.connection().getAdmin();
        Table table = SharedHBase.connection().getTable(t)) {
      admin.flush(t);
      table.delete(new Delete(row(250)).addColumns(D, Bytes.toBytes("v")));
    }
    String s = snapshot(t);
    try (SplitReads reads = SplitReads.capture()) {
      long fromFiles = sameAsHBase(s, r -> r.versions(Integer.MAX_VALUE));
      assertEquals(ROWS - 250, fromFiles, "the first region up to the marker, all of the second");
      assertEquals(
          3, reads.handedOver(), "the first region, once as rows, once folded and once mapped");
    }
  }
}

package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.RekeyException;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import dev.rekey.testing.TableContents;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Source data of unusual shapes on the embedded server: keys whose hash collides, MOB cells, rows
 * wider than one Result, rows and cells over HBase's size limits.
 */
@Tag("e2e")
class BackfillShapesIT {
  static final byte[] D = Bytes.toBytes("d");

  /**
   * Two different 128-byte inputs with the same MD5 (Wang et al., 2004): a real hash collision, so
   * no weak hash or test hook is needed (the key library refuses truncated hashes).
   */
  static final byte[] MD5_A =
      Hex.parse(
          "d131dd02c5e6eec4693d9a0698aff95c2fcab58712467eab4004583eb8fb7f89"
              + "55ad340609f4b30283e488832571415a085125e8f7cdc99fd91dbdf280373c5b"
              + "d8823e3156348f5bae6dacd436c919c6dd53e2b487da03fd02396306d248cda0"
              + "e99f33420f577ee8ce54b67080a80d1ec69821bcb6a8839396f9652b6ff72a70");

  static final byte[] MD5_B =
      Hex.parse(
          "d131dd02c5e6eec4693d9a0698aff95c2fcab50712467eab4004583eb8fb7f89"
              + "55ad340609f4b30283e4888325f1415a085125e8f7cdc99fd91dbd7280373c5b"
              + "d8823e3156348f5bae6dacd436c919c6dd53e23487da03fd02396306d248cda0"
              + "e99f33420f577ee8ce54b67080280d1ec69821bcb6a8839396f965ab6ff72a70");

  static final KeyLayout BLOB =
      KeyLayout.parse(
          "name: blob\nprefix:\n  kind: none\nfields:\n  - name: blob\n    type: bytes\n"
              + "    length: 128\n",
          "blob");
  static final KeyLayout BLOB_MD5 =
      KeyLayout.parse(
          "name: blob-md5\nprefix:\n  kind: full_hash\n  hash: md5\n  bytes: 16\nfields:\n"
              + "  - name: blob\n    type: bytes\n    length: 128\n",
          "blob-md5");

  private static BackfillResult run(BackfillOptions o) throws Exception {
    return new Backfill(SharedSpark.session(), SharedHBase.conf(), o).execute();
  }

  static BackfillResult runIn(BackfillOptions o) throws Exception {
    return run(o);
  }

  /** The backfill of {@code o}, failed: what it threw. */
  static Exception failure(BackfillOptions o) {
    return assertThrows(Exception.class, () -> run(o));
  }

  /** The copy of a BLOB-keyed snapshot into a BLOB-keyed {@code target} (the same key). */
  static BackfillOptions.Builder blobCopy(String snapshot, TableName target) {
    return options(snapshot, BLOB, target, BLOB);
  }

  static TableName table(String name, ColumnFamilyDescriptor family) throws Exception {
    TableName t = SharedHBase.uniqueTable(name);
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(t).setColumnFamily(family).build());
    }
    return t;
  }

  static String snapshot(TableName source) throws Exception {
    String name = source.getNameAsString() + "_snap";
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.flush(source);
      admin.snapshot(name, source);
    }
    return name;
  }

  static BackfillOptions.Builder options(
      String snapshot, KeyLayout from, TableName target, KeyLayout to) {
    return BackfillOptions.builder()
        .sourceSnapshot(snapshot)
        .sourceLayout(from)
        .targetTable(target.getNameAsString())
        .targetLayout(to)
        .staging(
            SharedHBase.runRoot()
                .resolve("backfill-staging")
                .resolve(target.getNameAsString())
                .toString());
  }

  @Test
  void twoKeysWhoseMd5CollidesAreACollisionAndNothingIsLoaded() throws Exception {
    assertTrue(
        Bytes.equals(BLOB_MD5.encode(new Object[] {MD5_A}), BLOB_MD5.encode(new Object[] {MD5_B})));
    TableName source = table("bf_md5_v1", ColumnFamilyDescriptorBuilder.of(D));
    TableName target = table("bf_md5_v2", ColumnFamilyDescriptorBuilder.of(D));
    List<Put> puts = new ArrayList<>();
    Random random = new Random(19);
    for (int i = 0; i < 50; i++) {
      byte[] key = new byte[128];
      random.nextBytes(key);
      puts.add(new Put(key).addColumn(D, Bytes.toBytes("q"), 1000L + i, Bytes.toBytes(i)));
    }
    puts.add(new Put(MD5_A).addColumn(D, Bytes.toBytes("q"), 1L, Bytes.toBytes("a")));
    puts.add(new Put(MD5_B).addColumn(D, Bytes.toBytes("q"), 2L, Bytes.toBytes("b")));
    try (Table t = SharedHBase.connection().getTable(source)) {
      t.put(puts);
    }
    String snap = snapshot(source);
    RekeyException e =
        assertThrows(
            RekeyException.class, () -> run(options(snap, BLOB, target, BLOB_MD5).build()));
    assertTrue(
        e.getMessage()
            .contains("1 target row key(s) would each come from more than one source row"),
        e.getMessage());
    assertTrue(e.getMessage().contains("Nothing was loaded"), e.getMessage());
    assertTrue(
        e.getMessage().contains(Hex.of(MD5_A)) || e.getMessage().contains(Hex.of(MD5_B)),
        "names a source key: " + e.getMessage());
    assertEquals(0, rows(target), "nothing loaded");
  }

  static long rows(TableName t) throws Exception {
    long n = 0;
    try (Table table = SharedHBase.connection().getTable(t);
        var sc = table.getScanner(new org.apache.hadoop.hbase.client.Scan())) {
      for (var ignored : sc) {
        n++;
      }
    }
    return n;
  }

  @Test
  void mobCellsArriveWithTheirValuesInAMobAndAPlainTargetFamily() throws Exception {
    ColumnFamilyDescriptor mob =
        ColumnFamilyDescriptorBuilder.newBuilder(D)
            .setMobEnabled(true)
            .setMobThreshold(100)
            .setMaxVersions(3)
            .build();
    TableName source = table("bf_mob_v1", mob);
    List<Put> puts = new ArrayList<>();
    Random random = new Random(7);
    for (int i = 0; i < 40; i++) {
      byte[] big = new byte[1000 + i];
      random.nextBytes(big);
      byte[] key = new byte[128];
      random.nextBytes(key);
      puts.add(
          new Put(key)
              .addColumn(D, Bytes.toBytes("big"), 5000L + i, big)
              .addColumn(D, Bytes.toBytes("big"), 4000L + i, Bytes.copy(big, 0, 500))
              .addColumn(D, Bytes.toBytes("small"), 5000L + i, Bytes.toBytes(i)));
    }
    try (Table t = SharedHBase.connection().getTable(source)) {
      t.put(puts);
    }
    String snap = snapshot(source);
    Map<String, List<String>> expected = TableContents.byNaturalKey(source, BLOB);
    assertEquals(120, TableContents.cells(expected));
    for (ColumnFamilyDescriptor family :
        List.of(mob, ColumnFamilyDescriptorBuilder.newBuilder(D).setMaxVersions(3).build())) {
      TableName target = table("bf_mob_v2", family);
      BackfillResult r = run(blobCopy(snap, target).build());
      assertTrue(r.verified());
      assertEquals(
          expected, TableContents.byNaturalKey(target, BLOB), "MOB=" + family.isMobEnabled());
    }
  }

  private static BackfillResult run(BackfillOptions o, org.apache.hadoop.conf.Configuration conf)
      throws Exception {
    return new Backfill(SharedSpark.session(), conf, o).execute();
  }

  /** Rows keyed by 128 random bytes, one cell of {@code valueBytes} each (timestamps 1000 + i). */
  static List<Put> rows(int n, int valueBytes, long seed) {
    List<Put> puts = new ArrayList<>();
    Random random = new Random(seed);
    for (int i = 0; i < n; i++) {
      byte[] key = new byte[128];
      random.nextBytes(key);
      byte[] value = new byte[valueBytes];
      random.nextBytes(value);
      puts.add(new Put(key).addColumn(D, Bytes.toBytes("q"), 1000L + i, value));
    }
    return puts;
  }

  static void put(TableName t, List<Put> puts) throws Exception {
    try (Table table = SharedHBase.connection().getTable(t)) {
      table.put(puts);
    }
  }

  @Test
  void cellsOverTheTargetsKeyValueMaxSizeAreQuarantinedWithTheirRowNamedBeforeTheLoad()
      throws Exception {
    TableName source = table("bf_kvmax_v1", ColumnFamilyDescriptorBuilder.of(D));
    TableName target = table("bf_kvmax_v2", ColumnFamilyDescriptorBuilder.of(D));
    List<Put> small = rows(30, 100, 11);
    List<Put> big = rows(2, 100_000, 12);
    put(source, small);
    put(source, big);
    String snap = snapshot(source);
    org.apache.hadoop.conf.Configuration conf =
        new org.apache.hadoop.conf.Configuration(SharedHBase.conf());
    conf.setLong("hbase.client.keyvalue.maxsize", 65_536);
    RekeyException e =
        assertThrows(RekeyException.class, () -> run(blobCopy(snap, target).build(), conf));
    assertTrue(
        e.getMessage()
            .contains(
                "2 of 32 source row keys in snapshot "
                    + snap
                    + " do not decode with source layout blob or hold a cell over the target's size"
                    + " limit"),
        e.getMessage());
    assertTrue(
        e.getMessage().contains("over hbase.client.keyvalue.maxsize (65536 bytes)")
            && (e.getMessage().contains(Hex.of(big.get(0).getRow()))
                || e.getMessage().contains(Hex.of(big.get(1).getRow()))),
        "names the cell, the limit and the row: " + e.getMessage());
    assertTrue(e.getMessage().contains("Nothing was loaded"), e.getMessage());
    assertEquals(0, rows(target));

    BackfillResult r = run(blobCopy(snap, target).maxQuarantined(2).build(), conf);
    assertEquals(new Accounting(32, 30, 2, 0), r.accounting());
    assertTrue(r.verified());
    Map<String, List<String>> expected = TableContents.byNaturalKey(source, BLOB);
    for (Put p : big) {
      expected.remove(TableContents.naturalKey(BLOB, p.getRow()));
    }
    assertEquals(expected, TableContents.byNaturalKey(target, BLOB));
  }

  @Test
  void rowsWiderThanOneResultArriveWhole() throws Exception {
    TableName source =
        table("bf_wide_v1", ColumnFamilyDescriptorBuilder.newBuilder(D).setMaxVersions(2).build());
    TableName target =
        table("bf_wide_v2", ColumnFamilyDescriptorBuilder.newBuilder(D).setMaxVersions(2).build());
    put(source, rows(20, 50, 21));
    Random random = new Random(22);
    for (int w = 0; w < 3; w++) {
      byte[] key = new byte[128];
      random.nextBytes(key);
      Put p = new Put(key);
      for (int c = 0; c < 1500; c++) {
        byte[] v = new byte[1024];
        random.nextBytes(v);
        p.addColumn(D, Bytes.toBytes("c" + c), 2000L, v);
        p.addColumn(D, Bytes.toBytes("c" + c), 1000L, Bytes.copy(v, 0, 16));
      }
      put(source, List.of(p));
    }
    String snap = snapshot(source);
    BackfillResult r = run(blobCopy(snap, target).build());
    assertEquals(new Accounting(23, 23, 0, 0), r.accounting());
    assertTrue(r.verified());
    Map<String, List<String>> expected = TableContents.byNaturalKey(source, BLOB);
    assertEquals(20 + 3 * 3000, TableContents.cells(expected));
    assertEquals(expected, TableContents.byNaturalKey(target, BLOB));
  }

  @Test
  void aRowOverTheMaxRowSizeFailsNamingTheRowInHexLoadsNothingAndARerunWithTheLimitRaisedCopiesIt()
      throws Exception {
    TableName source = table("bf_rowmax_v1", ColumnFamilyDescriptorBuilder.of(D));
    TableName target = table("bf_rowmax_v2", ColumnFamilyDescriptorBuilder.of(D));
    put(source, rows(20, 50, 31));
    byte[] key = new byte[128];
    new Random(32).nextBytes(key);
    Put p = new Put(key);
    for (int c = 0; c < 300; c++) {
      p.addColumn(D, Bytes.toBytes("c" + c), 1000L, new byte[8 * 1024]);
    }
    put(source, List.of(p));
    String snap = snapshot(source);
    org.apache.hadoop.conf.Configuration conf =
        new org.apache.hadoop.conf.Configuration(SharedHBase.conf());
    conf.setLong("hbase.table.max.rowsize", 1_048_576);
    Exception e = assertThrows(Exception.class, () -> run(blobCopy(snap, target).build(), conf));
    Throwable named = e;
    while (named != null && !(named instanceof RekeyException)) {
      named = named.getCause();
    }
    assertTrue(named != null, "a RekeyException in the causes: " + e);
    assertTrue(
        named
            .getMessage()
            .startsWith("Cannot read snapshot " + snap + ": row 0x" + Hex.of(key) + " (region "),
        named.getMessage());
    assertTrue(
        named.getMessage().contains("is bigger than hbase.table.max.rowsize (1048576 bytes)")
            && named.getMessage().contains("raise hbase.table.max.rowsize above the row's size"),
        named.getMessage());
    assertEquals(null, named.getCause(), "the last line printed is this message (ErrorLine)");
    assertEquals(0, rows(target), "nothing loaded");

    BackfillResult r = run(blobCopy(snap, target).build());
    assertTrue(r.verified());
    assertEquals(
        TableContents.byNaturalKey(source, BLOB), TableContents.byNaturalKey(target, BLOB));
  }
}

package dev.rekey.admin.createtable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.RekeyException;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("e2e")
public class CreateTableIT {
  @Test
  void createsSaltSplitTableWithFamilySettingsAndRefusesASecondTime() throws Exception {
    saltSplitTableWithFamilySettings(SharedHBase.connection());
  }

  /**
   * The scenario on the server {@code conn} reaches (the compatibility tier runs it on other HBase
   * versions).
   */
  public static void saltSplitTableWithFamilySettings(
      org.apache.hadoop.hbase.client.Connection conn) throws Exception {
    TableName t = SharedHBase.uniqueTable("ct_salt");
    Admin admin = conn.getAdmin();
    CreateTableResult r =
        TableCreator.table(t)
            .families(
                List.of(
                    FamilySpec.parse(
                        "d:compression=gz,bloom=rowcol,blocksize=32k,encoding=fast_diff,ttl=864000,versions=2")))
            .splitPoints(SplitChoice.choose(Layouts.shipped("telemetry-v2"), null, "salt"))
            .create(admin);
    assertTrue(r.created());
    assertEquals(16, r.regions());
    List<RegionInfo> regions = admin.getRegions(t);
    regions.sort(RegionInfo.COMPARATOR);
    assertEquals(16, regions.size());
    for (int i = 1; i < 16; i++) {
      assertArrayEquals(new byte[] {(byte) i}, regions.get(i).getStartKey());
    }
    ColumnFamilyDescriptor d = admin.getDescriptor(t).getColumnFamily(Bytes.toBytes("d"));
    assertEquals(Compression.Algorithm.GZ, d.getCompressionType());
    assertEquals(BloomType.ROWCOL, d.getBloomFilterType());
    assertEquals(32768, d.getBlocksize());
    assertEquals(DataBlockEncoding.FAST_DIFF, d.getDataBlockEncoding());
    assertEquals(864000, d.getTimeToLive());
    assertEquals(2, d.getMaxVersions());

    RekeyException e =
        assertThrows(
            RekeyException.class,
            () -> TableCreator.table(t).families(List.of(FamilySpec.parse("d"))).create(admin));
    assertTrue(
        e.getMessage().contains("already exists") && e.getMessage().contains("--if-not-exists"),
        e.getMessage());
    CreateTableResult again =
        TableCreator.table(t)
            .families(List.of(FamilySpec.parse("d")))
            .ifNotExists(true)
            .create(admin);
    assertFalse(again.created());
    assertEquals(16, again.regions());
  }

  /**
   * A date-tiered family: HBase's store engine and windows on the family, read back from the
   * server; the regions open with it, and a major compaction of two far-apart days keeps them in
   * two files (the default engine would write one).
   */
  @Test
  void dateTieredFamilyKeepsItsFilesSplitByTimeThroughAMajorCompaction() throws Exception {
    TableName t = SharedHBase.uniqueTable("ct_tiered");
    Admin admin = SharedHBase.connection().getAdmin();
    TableCreator.table(t)
        .families(List.of(FamilySpec.parse("d:compression=gz,compaction=date_tiered,window=P1D")))
        .create(admin);
    ColumnFamilyDescriptor d = admin.getDescriptor(t).getColumnFamily(Bytes.toBytes("d"));
    FamilySpecTest.assertGzDateTiered(d, 86_400_000L);
    assertEquals("60", d.getConfigurationValue("hbase.hstore.blockingStoreFiles"));

    long day = 86_400_000L;
    long now = System.currentTimeMillis();
    try (org.apache.hadoop.hbase.client.Table table = SharedHBase.connection().getTable(t)) {
      for (long age : new long[] {40 * day, 2 * day}) {
        for (int i = 0; i < 3; i++) { // three flushes a day: a compaction has files to merge
          java.util.List<org.apache.hadoop.hbase.client.Put> puts = new java.util.ArrayList<>();
          for (int r = 0; r < 50; r++) {
            puts.add(
                new org.apache.hadoop.hbase.client.Put(Bytes.toBytes(age + "-r" + r))
                    .addColumn(
                        Bytes.toBytes("d"),
                        Bytes.toBytes("q" + i),
                        now - age + i,
                        Bytes.toBytes(r)));
          }
          table.put(puts);
          admin.flush(t);
        }
      }
      admin.majorCompact(t);
      // the major compaction has finished and left one file per time window
      dev.rekey.common.Poll.until(
          () ->
              storeFiles(t) == 2
                  && admin.getCompactionState(t)
                      == org.apache.hadoop.hbase.client.CompactionState.NONE,
          java.time.Duration.ofSeconds(90),
          java.time.Duration.ofMillis(500),
          () -> new IllegalStateException("the major compaction did not finish in 90 s"));
      assertEquals(2, storeFiles(t), "one file per time window after the major compaction");
      long cells = 0;
      try (org.apache.hadoop.hbase.client.ResultScanner rows =
          table.getScanner(new org.apache.hadoop.hbase.client.Scan())) {
        for (org.apache.hadoop.hbase.client.Result row : rows) {
          cells += row.size();
        }
      }
      assertEquals(2 * 3 * 50, cells, "every cell is still there");
    }
  }

  @Test
  void cliCreatesFromLayoutNameAndReportsBadFamily() throws Exception {
    SharedHBase.server();
    TableName t = SharedHBase.uniqueTable("ct_cli");
    RekeyProcess.Result r =
        RekeyProcess.run(
            300,
            "create-table",
            "--table",
            t.getNameAsString(),
            "--layout",
            "events-v2",
            "--regions",
            "8",
            "--family",
            "e:bloom=row",
            "--family",
            "m");
    assertEquals(0, r.exitCode(), r.all());
    assertTrue(r.stdout().contains("Created " + t.getNameAsString() + " with 8 regions"), r.all());
    assertEquals(8, SharedHBase.connection().getAdmin().getRegions(t).size());

    RekeyProcess.Result bad =
        RekeyProcess.run(
            300,
            "create-table",
            "--table",
            "ct_never_" + ProcessHandle.current().pid(),
            "--layout",
            "events-v2",
            "--regions",
            "8",
            "--family",
            "e:compression=zip9");
    assertEquals(2, bad.exitCode(), bad.all());
    assertTrue(bad.stderr().contains("compression=zip9"), bad.all());
  }

  private static int storeFiles(TableName t) throws java.io.IOException {
    try {
      return SharedHBase.storeFileCount(t);
    } catch (java.io.IOException e) {
      throw e;
    } catch (Exception e) {
      throw new java.io.IOException(e);
    }
  }
}

package dev.rekey.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The shared read path against the real server: partitions per region, snapshot = live, time range,
 * errors.
 */
@Tag("e2e")
class RegionReaderIT {
  private static final int ROWS = 2_000;
  private static TableName table;
  private static String snapshot;
  private static TelemetryGenerator gen;

  @BeforeAll
  static void writeFourRegionTable() throws Exception {
    table = SharedHBase.uniqueTable("reader");
    snapshot = table.getNameAsString() + "_snap";
    gen = TelemetryGenerator.oneDay(ROWS, 10);
    // split the day into 4 time regions: the legacy key starts with ts
    byte[][] splits = new byte[3][];
    for (int i = 1; i <= 3; i++) {
      splits[i - 1] = Bytes.toBytes(TelemetryGenerator.DEFAULT_START + i * 6L * 3600 * 1000);
    }
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      LegacyTelemetryTable.create(admin, table, splits);
      try (Table t = SharedHBase.connection().getTable(table)) {
        List<Put> puts = new ArrayList<>();
        for (long i = 0; i < ROWS; i++) {
          puts.add(LegacyTelemetryTable.put(gen.reading(i)));
        }
        t.put(puts);
      }
      admin.flush(table);
      admin.snapshot(snapshot, table);
    }
  }

  private static JavaSparkContext jsc() {
    return JavaSparkContext.fromSparkContext(SharedSpark.session().sparkContext());
  }

  @Test
  void liveTableReadsOnePartitionPerRegionAndEveryRow() {
    try (RegionRead read = RegionReader.table(table).open(jsc(), SharedHBase.conf())) {
      assertEquals(4, read.regions());
      assertEquals(4, read.partitions());
      assertEquals(ROWS, read.rows().count());
    }
  }

  @Test
  void aLiveReadReusesItsConnectionsThreadsAcrossScannerCalls() {
    // 5 rows per scanner call: ~100 calls per region. HBase's default pool started a thread for
    // each (its 256 threads are all core threads); two kept per task's connection serve them all.
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    long before = threads.getTotalStartedThreadCount();
    try (RegionRead read = RegionReader.table(table).caching(5).open(jsc(), SharedHBase.conf())) {
      assertEquals(ROWS, ReaderPass.fold(read)[0]);
    }
    long started = threads.getTotalStartedThreadCount() - before;
    assertTrue(started < ROWS / 5 / 4, started + " threads started for ~" + ROWS / 5 + " calls");
  }

  @Test
  void snapshotReadsTheSameRowsAndCleansUpItsRestoreDir() {
    Path restoreRoot = SharedHBase.runRoot().resolve("restore-" + table.getNameAsString());
    RegionRead read =
        RegionReader.snapshot(snapshot)
            .splitsPerRegion(2)
            .restoreRoot(restoreRoot.toUri().toString())
            .open(jsc(), SharedHBase.conf());
    try {
      assertEquals(4, read.regions());
      assertEquals(8, read.partitions(), "k splits per region");
      List<String> keys = read.rows().map(r -> Bytes.toHex(r.getRow())).collect();
      assertEquals(ROWS, keys.size());
      assertEquals(ROWS, keys.stream().distinct().count(), "no row read twice across sub-splits");
      // the first and last regions have an open end: cut along their real keys, both halves hold
      // rows (HBase's
      // UniformSplit would put all of them in one half, the keys leading with 0x00 0x00 0x01...)
      List<Integer> perPartition =
          read.rows()
              .mapPartitions(
                  it -> {
                    int n = 0;
                    for (; it.hasNext(); it.next()) {
                      n++;
                    }
                    return List.of(n).iterator();
                  })
              .collect();
      assertTrue(perPartition.stream().allMatch(n -> n > ROWS / 16), perPartition.toString());
    } finally {
      read.close();
    }
    assertTrue(
        !Files.exists(restoreRoot) || restoreRoot.toFile().list().length == 0,
        "restore dir removed");
  }

  @Test
  void timeRangeKeepsOnlyCellsInsideIt() {
    TelemetryReading first = gen.reading(0);
    long from = first.ts() + 3600_000L;
    long to = first.ts() + 2 * 3600_000L;
    long expected = 0;
    for (long i = 0; i < ROWS; i++) {
      long ts = gen.reading(i).ts();
      if (ts >= from && ts < to) {
        expected++;
      }
    }
    try (RegionRead read =
        RegionReader.snapshot(snapshot).timeRange(from, to).open(jsc(), SharedHBase.conf())) {
      assertEquals(expected, read.rows().count());
      assertFalse(expected == 0);
    }
  }

  @Test
  void aWindowInKeyOrderReadsOnlyItsRangeInTheRegionHoldingIt() {
    // the legacy key leads with ts and the regions are 6 h each: 07:00-08:00 is one range, in
    // region 1 only
    long from = TelemetryGenerator.DEFAULT_START + 7 * 3600_000L;
    long to = from + 3600_000L;
    long expected = 0;
    for (long i = 0; i < ROWS; i++) {
      long ts = gen.reading(i).ts();
      if (ts >= from && ts < to) {
        expected++;
      }
    }
    assertFalse(expected == 0);
    ReadPlan plan = ReadPlan.window(Layouts.shipped("telemetry-v1"), from, to);
    for (RegionReader reader :
        List.of(RegionReader.table(table), RegionReader.snapshot(snapshot))) {
      try (RegionRead read = reader.plan(plan).open(jsc(), SharedHBase.conf())) {
        assertEquals(4, read.partitions(), "one task per region, pruned or not");
        assertEquals(expected, read.rows().count(), reader.describe());
        List<RegionScan> scans = read.regionScans();
        assertEquals(List.of(0, 1, 0, 0), scans.stream().map(s -> s.ranges().size()).toList());
        assertEquals(
            List.of(0L, expected, 0L, 0L),
            scans.stream().map(RegionScan::rowsScanned).toList(),
            reader.describe());
      }
      // the same table read with another layout's ranges would select nothing: its keys do not
      // decode, so every key
      // is read (and the job reports them as undecodable)
      ReadPlan wrong = ReadPlan.window(Layouts.shipped("telemetry-v2"), from, to);
      try (RegionRead read = reader.plan(wrong).open(jsc(), SharedHBase.conf())) {
        assertEquals(ReadPlan.Pruning.NONE, read.plan().pruning(), reader.describe());
        assertTrue(
            read.plan().reason().contains("does not decode with layout telemetry-v2"),
            read.plan().reason());
        assertEquals(ROWS, read.rows().count());
      }
    }
  }

  @Test
  void aRegionHoldingSeveralRangesReadsThemAllInOneTaskUnderTheWindowsTimeRange() throws Exception {
    // telemetry-v2 (salt | ts | deviceId) in 2 regions of 8 salt buckets each, 3 days: one day is
    // 8 ranges per region. The job's scan also carries the window as a cell time range, which
    // HBase checks before filters (the live read scans each range by its start and stop rows)
    dev.rekey.rowkey.KeyLayout v2 = Layouts.shipped("telemetry-v2");
    TableName salted = SharedHBase.uniqueTable("reader_salted");
    long day = 86_400_000L;
    long day2 = TelemetryGenerator.DEFAULT_START + day;
    long expected = 0;
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      admin.createTable(
          TableDescriptorBuilder.newBuilder(salted)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of(LegacyTelemetryTable.FAMILY))
              .build(),
          new byte[][] {{8}});
      try (Table t = SharedHBase.connection().getTable(salted)) {
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < 3 * 600; i++) {
          long ts = TelemetryGenerator.DEFAULT_START + i * (3 * day / 1800);
          puts.add(
              new Put(
                      v2.encode(
                          java.util.Map.of(
                              "ts",
                              ts,
                              "deviceId",
                              java.util.Arrays.copyOf(Bytes.toBytes(i % 37L), 16))))
                  .addColumn(LegacyTelemetryTable.FAMILY, LegacyTelemetryTable.VALUE, ts, b(i)));
          expected += ts >= day2 && ts < day2 + day ? 1 : 0;
        }
        t.put(puts);
      }
      admin.flush(salted);
      admin.snapshot(salted.getNameAsString() + "_snap", salted);
    }
    ReadPlan plan = ReadPlan.window(v2, day2, day2 + day);
    for (RegionReader reader :
        List.of(
            RegionReader.table(salted),
            RegionReader.snapshot(salted.getNameAsString() + "_snap"))) {
      try (RegionRead read =
          reader.timeRange(day2, day2 + day).plan(plan).open(jsc(), SharedHBase.conf())) {
        assertEquals(2, read.partitions(), "one task per region, whatever its ranges");
        assertEquals(expected, read.rows().count(), reader.describe());
        List<RegionScan> scans = read.regionScans();
        assertEquals(List.of(8, 8), scans.stream().map(x -> x.ranges().size()).toList());
        assertEquals(
            expected,
            scans.stream().mapToLong(RegionScan::rowsScanned).sum(),
            reader.describe() + ": only the window's rows are scanned");
      }
    }
  }

  private static byte[] b(int i) {
    return Bytes.toBytes(i);
  }

  @Test
  void missingSourcesAndFamiliesAreClearErrors() {
    RekeyException noSnap =
        assertThrows(
            RekeyException.class,
            () -> RegionReader.snapshot("no_such_snap").open(jsc(), SharedHBase.conf()));
    assertTrue(
        noSnap.getMessage().contains("Cannot read snapshot no_such_snap: it does not exist"),
        noSnap.getMessage());
    RekeyException noTable =
        assertThrows(
            RekeyException.class,
            () ->
                RegionReader.table(TableName.valueOf("no_such_table"))
                    .open(jsc(), SharedHBase.conf()));
    assertTrue(
        noTable.getMessage().contains("Cannot read table no_such_table: it does not exist"),
        noTable.getMessage());
    RekeyException noFamily =
        assertThrows(
            RekeyException.class,
            () -> RegionReader.table(table).families(List.of("x")).open(jsc(), SharedHBase.conf()));
    assertTrue(noFamily.getMessage().contains("unknown family x"), noFamily.getMessage());
    assertEquals(ExitCodes.USAGE, noFamily.exitCode());
  }
}

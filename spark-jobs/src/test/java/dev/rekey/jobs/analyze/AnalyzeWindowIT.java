package dev.rekey.jobs.analyze;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.OutputDir;
import dev.rekey.common.TimeWindow;
import dev.rekey.read.Source;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.SplitPoints;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * analyze --from/--to against the embedded HBase server: a window reads only the key ranges that
 * hold it (telemetry-v2: one range per salt bucket) and gives the analysis of exactly the window's
 * rows.
 */
@Tag("e2e")
class AnalyzeWindowIT {
  private static final byte[] F = Bytes.toBytes("d");
  private static final int PER_DAY = 1200;

  @Test
  void aWindowReadsOnlyItsKeyRangesAndGivesTheWindowsAnalysis(@TempDir Path out) throws Exception {
    KeyLayout v2 = Layouts.shipped("telemetry-v2");
    TableName all = SharedHBase.uniqueTable("days3");
    TableName oneDay = SharedHBase.uniqueTable("day2only");
    long day2 = GeneratedKeys.DAY_START + GeneratedKeys.DAY_MS;
    List<KeySample> rows = new ArrayList<>();
    List<KeySample> day2Rows = new ArrayList<>();
    for (int d = 0; d < 3; d++) {
      for (int i = 0; i < PER_DAY; i++) {
        long ts = GeneratedKeys.DAY_START + d * GeneratedKeys.DAY_MS + (long) i * 72_000L;
        byte[] key = v2.encode(Map.of("ts", ts, "deviceId", GeneratedKeys.device(i % 40)));
        rows.add(new KeySample(key, ts));
        if (d == 1) {
          day2Rows.add(new KeySample(key, ts));
        }
      }
    }
    String snap = all.getNameAsString() + "_snap";
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      write(admin, all, rows);
      write(admin, oneDay, day2Rows);
      admin.flush(all);
      admin.snapshot(snap, all);
    }

    AnalyzeResult whole =
        analyze(AnalyzeOptions.builder().source(Source.table(all.getNameAsString())).layout(v2));
    AnalyzeResult window =
        analyze(
            AnalyzeOptions.builder()
                .source(Source.table(all.getNameAsString()))
                .layout(v2)
                .window(new TimeWindow(day2, day2 + GeneratedKeys.DAY_MS)));
    // the analysis of the window's rows as analyze gives it for a table holding only them, every
    // row read
    AnalyzeResult expected =
        analyze(AnalyzeOptions.builder().source(Source.table(oneDay.getNameAsString())).layout(v2));

    assertEquals(3 * PER_DAY, whole.read().rowsScanned());
    assertTrue(whole.read().pruning().startsWith("every key"), whole.read().pruning());
    assertTrue(
        window.read().pruning().startsWith("16 key ranges: time field ts leads the key"),
        window.read().pruning());
    assertEquals(PER_DAY, window.read().rowsScanned(), "only the window's rows are scanned");
    assertEquals(PER_DAY, expected.read().rowsScanned());
    assertSameAnalysis(expected, window);
    for (Map<String, Object> region : window.read().regionScans()) {
      assertEquals(1, ((List<?>) region.get("ranges")).size(), "one bucket range per region");
    }

    // through the snapshot: the same rows, the same pruning
    AnalyzeResult fromSnapshot =
        analyze(
            AnalyzeOptions.builder()
                .source(Source.snapshot(snap))
                .layout(v2)
                .window(new TimeWindow(day2, day2 + GeneratedKeys.DAY_MS)));
    assertEquals(PER_DAY, fromSnapshot.read().rowsScanned());
    assertSameAnalysis(expected, fromSnapshot);

    // without a layout the keys' time is unknown: every key, the window as a cell time range, and
    // it says so
    AnalyzeResult cellTime =
        analyze(
            AnalyzeOptions.builder()
                .source(Source.table(all.getNameAsString()))
                .window(new TimeWindow(day2, day2 + GeneratedKeys.DAY_MS)));
    assertTrue(
        cellTime.read().pruning().startsWith("every key, window as a cell time range: no --layout"),
        cellTime.read().pruning());
    assertEquals(PER_DAY, cellTime.rowsRead());
    assertArrayEquals(expected.leadingByteHistogram(), cellTime.leadingByteHistogram());

    org.apache.hadoop.fs.Path json =
        AnalyzeReport.write(window, OutputDir.of(out.toString(), true, new Configuration())).get(0);
    String text = Files.readString(Path.of(json.toUri()));
    assertTrue(text.contains("\"rowsScanned\" : " + PER_DAY), text);
    assertTrue(text.contains("\"pruning\" : \"16 key ranges"), text);
  }

  /** Every analysis here plans for 4 RegionServers. */
  private static AnalyzeResult analyze(AnalyzeOptions.Builder options) {
    return new Analyze(SharedSpark.session(), SharedHBase.conf(), options.servers(4).build())
        .execute();
  }

  private static void assertSameAnalysis(AnalyzeResult expected, AnalyzeResult actual) {
    assertEquals(expected.rowsRead(), actual.rowsRead());
    assertEquals(expected.sampledRows(), actual.sampledRows());
    assertArrayEquals(expected.leadingByteHistogram(), actual.leadingByteHistogram());
    assertEquals(expected.busiestEighthShare(), actual.busiestEighthShare());
    assertEquals(expected.appendFraction(), actual.appendFraction());
    assertEquals(expected.recentLabel(), actual.recentLabel());
    assertEquals(expected.recentRows(), actual.recentRows());
    assertEquals(expected.recentTopRegion(), actual.recentTopRegion());
    assertEquals(expected.recentRegionsHit(), actual.recentRegionsHit());
    for (int i = 0; i < expected.regions().size(); i++) {
      assertEquals(
          expected.regions().get(i).rows(), actual.regions().get(i).rows(), "region " + (i + 1));
    }
    assertEquals(expected.verdict().shape(), actual.verdict().shape());
    assertEquals(expected.verdict().hotspot(), actual.verdict().hotspot());
  }

  private static void write(Admin admin, TableName t, List<KeySample> rows) throws Exception {
    admin.createTable(
        TableDescriptorBuilder.newBuilder(t)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
            .build(),
        SplitPoints.salt(16).toArray(new byte[0][]));
    List<Put> puts = new ArrayList<>();
    for (KeySample k : rows) {
      puts.add(new Put(k.key()).addColumn(F, Bytes.toBytes("v"), k.ts(), Bytes.toBytes(k.ts())));
    }
    try (Table table = SharedHBase.connection().getTable(t)) {
      table.put(puts);
    }
  }
}

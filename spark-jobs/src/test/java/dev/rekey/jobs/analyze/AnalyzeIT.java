package dev.rekey.jobs.analyze;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.admin.createtable.FamilySpec;
import dev.rekey.admin.createtable.TableCreator;
import dev.rekey.admin.plan.SplitFile;
import dev.rekey.admin.plan.SplitPlan;
import dev.rekey.admin.plan.SplitPlanner;
import dev.rekey.common.OutputDir;
import dev.rekey.read.Source;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.SplitPoints;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** analyze, plan's split file and the region counters against the embedded HBase server process. */
@Tag("e2e")
class AnalyzeIT {
  private static final byte[] F = Bytes.toBytes("d");

  /** One row a sampled key, its time the cell's timestamp and value. */
  private static void write(TableName t, List<KeySample> rows) throws Exception {
    List<Put> puts = new ArrayList<>();
    for (KeySample k : rows) {
      puts.add(new Put(k.key()).addColumn(F, Bytes.toBytes("v"), k.ts(), Bytes.toBytes(k.ts())));
    }
    try (Table table = SharedHBase.connection().getTable(t)) {
      table.put(puts);
    }
  }

  private static void create(Admin admin, TableName t, List<byte[]> splits) throws Exception {
    admin.createTable(
        TableDescriptorBuilder.newBuilder(t)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
            .build(),
        splits.isEmpty() ? null : splits.toArray(new byte[0][]));
  }

  private static AnalyzeResult analyze(AnalyzeOptions.Builder options) {
    return new Analyze(SharedSpark.session(), SharedHBase.conf(), options.build()).execute();
  }

  @Test
  void writesToOneRegionShowInItsWriteRequestCount() throws Exception {
    TableName t = SharedHBase.uniqueTable("metrics");
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      create(admin, t, SplitPoints.salt(4));
      ClusterRegions.View before = ClusterRegions.read(SharedHBase.connection(), admin, t);
      assertEquals(4, before.regions().size());
      long base = before.regions().get(1).writeRequests();
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        puts.add(
            new Put(Bytes.add(new byte[] {1}, Bytes.toBytes(i)))
                .addColumn(F, Bytes.toBytes("v"), Bytes.toBytes(i)));
      }
      try (Table table = SharedHBase.connection().getTable(t)) {
        table.put(puts);
      }
      // the RegionServer's counters are read live; still, wait on the condition rather than assume
      // when it shows
      long deadline = System.nanoTime() + 60_000_000_000L;
      ClusterRegions.View after = ClusterRegions.read(SharedHBase.connection(), admin, t);
      while (after.regions().get(1).writeRequests() < base + 200 && System.nanoTime() < deadline) {
        after = ClusterRegions.read(SharedHBase.connection(), admin, t);
      }
      assertTrue(
          after.regions().get(1).writeRequests() >= base + 200,
          "region 2 write requests: " + after.regions());
      for (int r : new int[] {0, 2, 3}) {
        assertEquals(
            0,
            after.regions().get(r).writeRequests(),
            "region " + (r + 1) + " got no writes: " + after.regions());
      }
      ServerStat server =
          after.servers().stream().filter(s -> s.tableRegions() > 0).findFirst().orElseThrow();
      assertEquals(4, server.tableRegions());
      assertTrue(server.tableWriteRequests() >= 200, server.toString());
      assertEquals(after.regions().get(1).server(), server.server());
    }
  }

  @Test
  void analyzeFindsTheLegacyHotspotFromTableAndSnapshot(@TempDir Path out) throws Exception {
    KeyLayout v1 = Layouts.shipped("telemetry-v1");
    KeyLayout v2 = Layouts.shipped("telemetry-v2");
    TableName t = SharedHBase.uniqueTable("legacy");
    String snap = t.getNameAsString() + "_snap";
    List<KeySample> rows = GeneratedKeys.telemetry(v1, 3000, 30);
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      create(admin, t, List.of());
      write(t, rows);
      admin.flush(t);
      admin.snapshot(snap, t);
    }
    AnalyzeResult r =
        analyze(
            AnalyzeOptions.builder()
                .source(Source.table(t.getNameAsString()))
                .layout(v1)
                .sample(1000)
                .servers(12)
                .simulate(v2, "natural"));
    assertEquals(3000, r.rowsRead());
    assertEquals(1000, r.sampledRows(), 1);
    assertEquals(3000, r.regions().get(0).rows());
    assertEquals(1.0, r.busiestEighthShare());
    assertTrue(r.verdict().hotspot(), r.verdict().toString());
    assertTrue(
        r.verdict()
            .reasons()
            .contains(
                "the table has one region, so every write lands in it: how writes spread over"
                    + " regions cannot be judged until it is split"),
        r.verdict().reasons().toString());
    assertEquals("salt", r.verdict().shape());
    assertEquals(16, r.verdict().buckets());
    assertEquals(16, r.simulation().regions());
    assertTrue(r.simulation().maxOverMean() < 1.6, "rekeyed sample spreads: " + r.simulation());
    assertTrue(r.regions().get(0).writeRequests() >= 3000, r.regions().toString());
    List<org.apache.hadoop.fs.Path> files =
        AnalyzeReport.write(r, OutputDir.of(out.toString(), true, new Configuration()));
    assertTrue(Files.readString(Path.of(files.get(0).toUri())).contains("\"shape\" : \"salt\""));
    assertTrue(Files.readString(Path.of(files.get(1).toUri())).contains("<svg"));

    AnalyzeResult fromSnapshot =
        analyze(AnalyzeOptions.builder().source(Source.snapshot(snap)).layout(v1).sample(1000));
    assertEquals("snapshot " + snap, fromSnapshot.source());
    assertEquals(3000, fromSnapshot.rowsRead());
    assertTrue(fromSnapshot.verdict().hotspot());
  }

  @Test
  void aSaltedPreSplitTableIsSpreadAndItsTailsAreListed() throws Exception {
    KeyLayout v2 = Layouts.shipped("telemetry-v2");
    TableName t = SharedHBase.uniqueTable("salted");
    List<KeySample> rows = GeneratedKeys.telemetry(v2, 4000, 40);
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      create(admin, t, SplitPoints.salt(16));
      write(t, rows);
    }
    AnalyzeResult r =
        analyze(
            AnalyzeOptions.builder()
                .source(Source.table(t.getNameAsString()))
                .layout(v2)
                .sample(4000)
                .servers(12));
    assertEquals(4000, r.rowsRead());
    assertEquals(16, r.regions().size());
    long[] perBucket = new long[16];
    rows.forEach(k -> perBucket[k.key()[0]]++);
    for (int i = 0; i < 16; i++) {
      assertEquals(perBucket[i], r.regions().get(i).rows(), "region " + (i + 1));
    }
    assertTrue(
        r.verdict().reasons().get(0).startsWith("writes are not monotonic"),
        r.verdict().reasons().toString());
    assertEquals(Verdict.Outcome.NO_HOTSPOT, r.verdict().outcome(), r.verdict().toString());
    assertEquals("none", r.verdict().shape(), r.verdict().toString());
    ServerStat server =
        r.servers().stream().filter(s -> s.tableRegions() > 0).findFirst().orElseThrow();
    assertEquals(
        16,
        server.tailBuckets().size()); // one server: every tail is on it, which is its fair share
  }

  @Test
  void plansSplitFileRoundTripsIntoTableCreation(@TempDir Path dir) throws Exception {
    // create-table's own TableCreator with the parsed file (its --splits FILE still reads its own
    // hex format; the lead
    // unifies it onto dev.rekey.admin.plan.SplitFile)
    SplitPlan plan =
        SplitPlanner.forLayout(Layouts.shipped("events-v2")).volume(100, 6, 1.5).plan(); // 25 -> 32
    assertEquals(32, plan.regions());
    Path file = dir.resolve("splits.txt");
    SplitFile.write(file, plan.splitPoints());
    List<byte[]> parsed = SplitFile.read(file);
    TableName t = SharedHBase.uniqueTable("planned");
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      TableCreator.table(t)
          .families(List.of(FamilySpec.parse("d")))
          .splitPoints(parsed)
          .create(admin);
      List<RegionInfo> regions = new ArrayList<>(admin.getRegions(t));
      regions.sort(Comparator.comparing(RegionInfo::getStartKey, Bytes::compareTo));
      assertEquals(32, regions.size());
      for (int i = 1; i < regions.size(); i++) {
        assertArrayEquals(
            plan.splitPoints().get(i - 1), regions.get(i).getStartKey(), "region " + i);
      }
    }
  }
}

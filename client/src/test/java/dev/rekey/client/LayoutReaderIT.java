package dev.rekey.client;

import static dev.rekey.client.Telemetry.DAY;
import static dev.rekey.client.Telemetry.HOUR;
import static dev.rekey.client.Telemetry.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The reader against the real server: a salted table with three regions per bucket (48 regions, 16
 * buckets) and the legacy one-region table, both written through the dual writer.
 */
@Tag("e2e")
class LayoutReaderIT {
  private static final int ROWS = 3_000;
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");
  private static TableName v1;
  private static TableName v2;
  private static List<Telemetry.Reading> readings;
  private static LayoutReader oldReader;
  private static LayoutReader newReader;

  @BeforeAll
  static void writeBothTables() throws Exception {
    v1 = ClientHBase.uniqueTable("reader_v1");
    v2 = ClientHBase.uniqueTable("reader_v2");
    Connection conn = ClientHBase.connection();
    try (Admin admin = conn.getAdmin()) {
      Telemetry.createV1(admin, v1);
      Telemetry.createV2(admin, v2, V2, 3);
      assertEquals(48, admin.getRegions(v2).size());
    }
    readings = Telemetry.day(ROWS, 40, 7);
    try (DualWriter w = DualWriter.builder(conn).oldTable(v1, V1).newTable(v2, V2).build()) {
      for (Telemetry.Reading r : readings) {
        w.mutate(r.fields(), r.cells());
      }
      w.flush();
    }
    oldReader = LayoutReader.open(conn, v1, V1);
    newReader = LayoutReader.open(conn, v2, V2);
  }

  @AfterAll
  static void closeReaders() {
    oldReader.close();
    newReader.close();
  }

  @Test
  void mergedBucketsReturnNaturalOrderForRandomWindowsLimitsAndDirections() {
    Random rnd = new Random(20261201);
    for (int i = 0; i < 60; i++) {
      long from = T0 - HOUR + (long) (rnd.nextDouble() * (DAY + 2 * HOUR));
      long to = from + (long) (rnd.nextDouble() * 6 * HOUR);
      int limit =
          switch (rnd.nextInt(3)) {
            case 0 -> 0;
            case 1 -> 1 + rnd.nextInt(5);
            default -> 1 + rnd.nextInt(300);
          };
      boolean reverse = rnd.nextBoolean();
      ReadQuery q = ReadQuery.builder().window(from, to).limit(limit).reverse(reverse).build();
      List<String> expected = expected(from, to, limit, reverse);
      List<String> merged = natural(newReader.scan(q), 1);
      assertEquals(expected, merged, q.toString());
      assertEquals(expected, natural(oldReader.scan(q), 0), "v1 contiguous scan, " + q);
    }
  }

  @Test
  void limitAndReverseTakeTheFirstRowsOfTheirDirection() {
    long from = T0 + 10 * HOUR;
    List<String> all = expected(from, from + HOUR, 0, false);
    assertTrue(all.size() > 50, "rows in the hour: " + all.size());
    assertEquals(all.subList(0, 5), natural(newReader.scan(q(from, 5, false)), 1));
    List<String> reversed = new ArrayList<>(all);
    Collections.reverse(reversed);
    assertEquals(reversed.subList(0, 5), natural(newReader.scan(q(from, 5, true)), 1));
    assertEquals(reversed, natural(newReader.scan(q(from, 0, true)), 1));
    assertEquals(all, natural(newReader.scan(q(from, all.size() + 100, false)), 1));
  }

  @Test
  void getFindsRowsByNaturalKeyAlone() throws Exception {
    Random rnd = new Random(3);
    for (int i = 0; i < 30; i++) {
      Telemetry.Reading r = readings.get(rnd.nextInt(readings.size()));
      Result row = newReader.get(r.fields()).orElseThrow();
      assertEquals(r.value(), Bytes.toLong(row.getValue(Telemetry.D, Telemetry.V)));
      assertEquals(
          r.ts(), row.rawCells()[0].getTimestamp(), "the cell keeps the explicit timestamp");
    }
    assertTrue(newReader.get(Map.of("ts", T0 - 1, "deviceId", new byte[16])).isEmpty());
  }

  @Test
  void anOfflineBucketRegionFailsTheReadNamingTheBucket() throws Exception {
    // bucket 5's last region: [05 | T0 + 2/3 day, 06)
    byte[] inside = Bytes.add(new byte[] {5}, Bytes.toBytes(T0 + 20 * HOUR));
    Configuration fast = new Configuration(ClientHBase.conf());
    fast.setInt("hbase.client.retries.number", 1);
    fast.setInt("hbase.client.pause", 50);
    fast.setInt("hbase.rpc.timeout", 2_000);
    fast.setInt("hbase.client.operation.timeout", 4_000);
    fast.setInt("hbase.client.scanner.timeout.period", 4_000);
    fast.setInt("hbase.client.meta.operation.timeout", 4_000);
    try (Admin admin = ClientHBase.connection().getAdmin();
        Connection conn = ConnectionFactory.createConnection(fast);
        LayoutReader reader = LayoutReader.open(conn, v2, V2)) {
      RegionInfo region =
          admin.getRegions(v2).stream()
              .filter(r -> r.containsRow(inside))
              .findFirst()
              .orElseThrow();
      admin.unassign(region.getRegionName());
      try {
        // the window lies inside the offline region: the bucket's scan fails as it opens
        BucketReadException atOpen =
            assertThrows(
                BucketReadException.class,
                () -> reader.scan(ReadQuery.window(T0 + 20 * HOUR, T0 + 21 * HOUR)));
        assertEquals(5, atOpen.bucket());
        assertTrue(
            atOpen.getMessage().startsWith("Cannot read " + v2.getNameAsString() + " bucket 5 [05"),
            atOpen.getMessage());

        // the whole day: bucket 5's first regions are online, its last is not; whether the failure
        // surfaces before
        // the first row or after some, the read fails and never ends early as if it were complete
        int before = 0;
        BucketReadException midway = null;
        try (MergedScan scan = reader.open(ReadQuery.window(T0, T0 + DAY))) {
          while (scan.hasNext()) {
            scan.next();
            before++;
          }
        } catch (BucketReadException e) {
          midway = e;
        }
        assertTrue(midway != null, "the read ended after " + before + " rows without an error");
        assertEquals(5, midway.bucket());
        assertTrue(before < readings.size(), "rows before the failure: " + before);
        assertThrows(BucketReadException.class, () -> reader.scan(ReadQuery.window(T0, T0 + DAY)));
      } finally {
        admin.assign(region.getRegionName());
      }
    }
    assertEquals(
        expected(T0 + 20 * HOUR, T0 + 21 * HOUR, 0, false),
        natural(newReader.scan(ReadQuery.window(T0 + 20 * HOUR, T0 + 21 * HOUR)), 1),
        "readable again once assigned");
  }

  private static ReadQuery q(long from, int limit, boolean reverse) {
    return ReadQuery.builder().window(from, from + HOUR).limit(limit).reverse(reverse).build();
  }

  private static List<String> expected(long from, long to, int limit, boolean reverse) {
    List<String> out = new ArrayList<>();
    for (Telemetry.Reading r : readings) { // readings are in natural order
      if (r.ts() >= from && r.ts() < to) {
        out.add(Hex.of(r.natural()));
      }
    }
    if (reverse) {
      Collections.reverse(out);
    }
    return limit > 0 && out.size() > limit ? out.subList(0, limit) : out;
  }

  private static List<String> natural(List<Result> rows, int prefix) {
    List<String> out = new ArrayList<>(rows.size());
    for (Result r : rows) {
      byte[] k = r.getRow();
      out.add(Hex.of(Arrays.copyOfRange(k, prefix, k.length)));
    }
    return out;
  }
}

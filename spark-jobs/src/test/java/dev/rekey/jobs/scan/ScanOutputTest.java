package dev.rekey.jobs.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rekey.common.DecodedRow;
import dev.rekey.common.RowDecoder;
import dev.rekey.common.TimeWindow;
import dev.rekey.read.RegionScan;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.KeyRange;
import dev.rekey.testing.Layouts;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The views' shapes, per-region accounting, summary.json and report.html — without Spark or HBase.
 */
@Tag("unit")
class ScanOutputTest {
  @Test
  void viewsHaveTypedFieldsHexAndWideColumns() {
    KeyLayout telemetry = Layouts.shipped("telemetry-v2");
    byte[] device = new byte[16];
    device[0] = (byte) 0xab;
    byte[] key = telemetry.encode(Map.of("ts", 1000L, "deviceId", device));
    byte[] d = "d".getBytes(StandardCharsets.UTF_8);
    Cell v1 =
        new KeyValue(key, d, "v".getBytes(), 1000L, ByteBuffer.allocate(8).putLong(5).array());
    Cell v0 = new KeyValue(key, d, "v".getBytes(), 999L, ByteBuffer.allocate(8).putLong(4).array());
    Cell s = new KeyValue(key, d, "s".getBytes(), 1000L, "ok".getBytes());
    DecodedRow row = new RowDecoder(telemetry).decode(key, new Cell[] {v1, v0, s});
    ScanViews views =
        new ScanViews(
            telemetry,
            List.of(
                WideColumn.parse("d:v=long:reading"),
                WideColumn.parse("d:s=string:status"),
                WideColumn.parse("d:missing=int")));

    assertEquals(
        List.of(
            "ts",
            "deviceId",
            "deviceId_hex",
            "row_key",
            "row_key_hex",
            "cell_count",
            "row_bytes",
            "partition",
            "reading",
            "status",
            "missing"),
        List.of(views.rowSchema().fieldNames()));
    Row r = views.row(row, 3);
    assertEquals(1000L, r.getLong(0));
    assertEquals("ab000000000000000000000000000000", r.getString(2));
    assertEquals(3, r.getInt(5));
    assertEquals(3, r.getInt(7));
    assertEquals(5L, r.getLong(8), "the newest version");
    assertEquals("ok", r.getString(9));
    assertNull(r.get(10));
    assertEquals(views.rowSchema().size(), r.size());

    assertEquals(
        List.of(
            "ts",
            "deviceId",
            "deviceId_hex",
            "row_key_hex",
            "family",
            "qualifier",
            "cell_ts",
            "value",
            "partition"),
        List.of(views.cellSchema().fieldNames()));
    List<Row> cells = views.cells(row, 3);
    assertEquals(3, cells.size());
    assertEquals("d", cells.get(0).getString(4));
    assertEquals(views.cellSchema().size(), cells.get(0).size());
  }

  @Test
  void statsDedupeByPartitionAndSumPerRegion() {
    RegionStats p0 = new RegionStats(0, "00", 10, 20, 300, 5, 0, List.of());
    RegionStats p0again = new RegionStats(0, "00", 10, 20, 300, 7, 0, List.of());
    RegionStats p1 = new RegionStats(1, "05", 4, 8, 100, 2, 0, List.of());
    RegionStats p2 = new RegionStats(2, "", 0, 0, 0, 1, 0, List.of());
    RegionStats p3 = new RegionStats(3, "0a", 1, 1, 10, 1, 1, List.of("0a: bad"));
    List<RegionStats> parts = RegionStats.dedupe(List.of(p1, p0, p0again, p2, p3));
    assertEquals(4, parts.size(), "a retried partition counts once");

    // 2 regions x 2 splits, exactly planned: partition / k
    List<RegionTotals> exact = RegionTotals.of(parts, 2, 2, null);
    assertEquals(14, exact.get(0).rows());
    assertEquals(1, exact.get(1).rows());
    assertEquals(
        exact.stream().mapToLong(RegionTotals::rows).sum(),
        parts.stream().mapToLong(RegionStats::rows).sum());

    // 3 regions but only 4 partitions planned: placed by first key; the empty one joins the one
    // before it
    List<byte[]> starts = List.of(new byte[0], new byte[] {0x04}, new byte[] {0x08});
    List<RegionTotals> placed = RegionTotals.of(parts, 3, 2, starts);
    assertEquals(List.of(10L, 4L, 1L), placed.stream().map(RegionTotals::rows).toList());
    assertEquals(List.of(1, 2, 1), placed.stream().map(RegionTotals::partitions).toList());
    assertEquals("04", placed.get(1).startKeyHex());

    // a snapshot lists its regions in manifest order: partition p / k reads startKeys[p / k];
    // output is in key order
    List<byte[]> manifestOrder = List.of(new byte[] {0x08}, new byte[0]);
    List<RegionTotals> snap = RegionTotals.of(parts, 2, 2, manifestOrder);
    assertEquals(List.of(1L, 14L), snap.stream().map(RegionTotals::rows).toList());
    assertEquals(List.of("", "08"), snap.stream().map(RegionTotals::startKeyHex).toList());
  }

  @Test
  void summaryJsonAndSelfContainedHtml() throws Exception {
    List<RegionStats> parts =
        List.of(
            new RegionStats(0, "", 3, 6, 90, 4, 0, List.of()),
            new RegionStats(1, "80", 5, 10, 150, 6, 0, List.of()));
    ReportOutput rep =
        new ReportOutput(
            "r<1>",
            "sql/r.sql",
            "a & b",
            2,
            "/out/r",
            List.of("user", "n"),
            List.of(List.of("<script>", "1"), List.of("bob", "2")),
            9);
    ScanResult result =
        new ScanResult(
            "table t",
            "events-v2",
            new TimeWindow(0, 10),
            2,
            2,
            1,
            RegionTotals.of(parts, 2, 1, null),
            parts,
            List.of(rep),
            "/out",
            "/out/summary.json",
            "/out/report.html",
            55,
            "snapshot s",
            "1 key range: entity userId=bob",
            List.of(
                new RegionScan(
                    0, "", "80", List.of(new KeyRange(Hex.parse("0102"), Hex.parse("0103"))), 8),
                new RegionScan(1, "80", "", List.of(), 0)));

    JsonNode json = new ObjectMapper().readTree(result.toJson());
    assertEquals(8, json.get("totals").get("rows").asLong());
    assertEquals(16, json.get("totals").get("cells").asLong());
    assertEquals(8, json.get("totals").get("read").asLong());
    assertEquals(2, json.get("perRegion").size());
    assertEquals(5, json.get("perRegion").get(1).get("rows").asLong());
    assertEquals(6, json.get("perRegion").get(1).get("millis").asLong());
    assertEquals(2, json.get("reports").get(0).get("rows").asLong());
    assertEquals("1 key range: entity userId=bob", json.get("pruning").asText());
    JsonNode first = json.get("regionScans").get(0);
    assertEquals("0102", first.get("ranges").get(0).get("start").asText());
    assertEquals("0103", first.get("ranges").get(0).get("stop").asText());
    assertEquals(8, first.get("rowsScanned").asLong());
    assertEquals(
        0,
        json.get("regionScans").get(1).get("ranges").size(),
        "a region outside the entity reads nothing");
    assertEquals(
        "read 8 rows = 8 decoded + 0 undecodable; 16 cells, 240 bytes", result.accounting());

    String html = HtmlReport.render(result);
    assertTrue(html.contains("<svg"), html);
    assertEquals(2, html.split("<rect class=\"bar\"").length - 1, "one bar per region");
    assertTrue(html.contains("&lt;script&gt;"), "report values are escaped");
    assertTrue(html.contains("r&lt;1&gt;") && html.contains("a &amp; b"));
    assertFalse(html.contains("<script"), "no scripts");
    assertFalse(
        html.contains("http://")
            && html.replace("http://www.w3.org/2000/svg", "").contains("http://"),
        "nothing fetched");
  }
}

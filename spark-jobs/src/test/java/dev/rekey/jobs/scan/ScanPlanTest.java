package dev.rekey.jobs.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeWindow;
import dev.rekey.read.ReadPlan;
import dev.rekey.read.Source;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.KeyRangePlanner;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.SharedHBase;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The scan's plan layer: time windows, wide columns, option validation. */
@Tag("unit")
class ScanPlanTest {
  static final long DAY_START = 1_795_910_400_000L; // 2026-11-29T00:00:00Z
  static final KeyLayout EVENTS = Layouts.shipped("events-v2");

  static RekeyException usage(Runnable r) {
    RekeyException e = assertThrows(RekeyException.class, r::run);
    assertEquals(ExitCodes.USAGE, e.exitCode(), e.getMessage());
    return e;
  }

  /** The usage message that refuses scan options of table t with {@code layout}, as set by more. */
  private static String refusal(KeyLayout layout, UnaryOperator<ScanOptions.Builder> more) {
    return usage(() -> more.apply(ScanOptions.builder().table("t").layout(layout)).build())
        .getMessage();
  }

  @Test
  void wideColumnsParseAndConvert() {
    WideColumn v = WideColumn.parse("d:v=long");
    assertEquals(new WideColumn("d", "v", WideColumn.Type.LONG, "v"), v);
    assertEquals(42L, v.convert(ByteBuffer.allocate(8).putLong(42).array()));
    assertNull(v.convert(new byte[3]), "bytes that do not fit the type are null");
    assertEquals("reading", WideColumn.parse("d:v=long:reading").name());
    assertEquals("ok", WideColumn.parse("d:s=string").convert("ok".getBytes()));
    assertEquals(7, WideColumn.parse("d:n=INT").convert(ByteBuffer.allocate(4).putInt(7).array()));
    assertEquals(
        1.5, WideColumn.parse("d:x=double").convert(ByteBuffer.allocate(8).putDouble(1.5).array()));
    assertTrue(
        usage(() -> WideColumn.parse("dv=long"))
            .getMessage()
            .contains("expected family:qualifier=type"));
    assertTrue(
        usage(() -> WideColumn.parse("d:v=float")).getMessage().contains("unknown type 'float'"));
    assertTrue(
        usage(() -> WideColumn.parse("d:my-col=long"))
            .getMessage()
            .contains("Invalid column name 'my-col'"));
    assertEquals("d:v=long:reading", WideColumn.parse("d:v=long:reading").spec());
  }

  @Test
  void defaultsAreParquetOneSplitPerRegionAndEveryCell() {
    ScanOptions o = ScanOptions.builder().table("events_v2").layout(EVENTS).build();
    assertEquals(ScanOptions.DEFAULT_FORMAT, o.format());
    assertEquals(1, o.splitsPerRegion());
    assertEquals(TimeWindow.ALL, o.window());
    assertEquals(Map.of("from", "0", "to", Long.toString(Long.MAX_VALUE)), o.reportValues());
  }

  @Test
  void neitherOrBothOfTableAndSnapshotIsRefused() {
    String both =
        "Give exactly one of --table T (live table) or --snapshot S (its files, no load on the"
            + " RegionServers)";
    assertEquals(both, usage(() -> Source.of(null, null, false)).getMessage());
    assertEquals(both, usage(() -> Source.of("t", "s", false)).getMessage());
  }

  @Test
  void viaSnapshotWithASnapshotIsRefused() {
    assertEquals(
        "--via-snapshot reads a live --table through a snapshot taken for the job; --snapshot s"
            + " is read from its files already (drop --via-snapshot)",
        usage(() -> Source.of(null, "s", true)).getMessage());
  }

  @Test
  void viaSnapshotWithATableReadsItThroughASnapshot() {
    assertEquals(Source.tableViaSnapshot("t"), Source.of("t", null, true));
    assertEquals("table t (via a snapshot)", Source.of("t", null, true).toString());
  }

  @Test
  void aMissingLayoutIsRefused() {
    assertEquals(
        "Missing --layout: the layout file that decodes table t's row keys (e.g."
            + " conf/layouts/events-v2.yaml)",
        usage(() -> ScanOptions.builder().table("t").build()).getMessage());
  }

  @Test
  void splitsPerRegionOutsideItsRangeIsRefused() {
    assertEquals(
        "Invalid --splits-per-region 0: expected 1.." + ScanOptions.MAX_SPLITS_PER_REGION,
        usage(() -> ScanOptions.builder().table("t").layout(EVENTS).splitsPerRegion(0).build())
            .getMessage());
  }

  @Test
  void aFamilyWithAQualifierIsRefused() {
    assertEquals(
        "Invalid --families entry 'd:v': give family names, e.g. --families d,e",
        usage(
                () ->
                    ScanOptions.builder()
                        .table("t")
                        .layout(EVENTS)
                        .families(List.of("d:v"))
                        .build())
            .getMessage());
  }

  @Test
  void aParamNoReportDeclaresIsRefused() {
    assertTrue(
        usage(() -> ScanOptions.builder().table("t").layout(EVENTS).param("x=1").build())
            .getMessage()
            .startsWith("Unknown --param x: no report declares it (reports: "));
  }

  @Test
  void aParamWithoutAValueIsRefused() {
    assertEquals(
        "Invalid --param 'novalue': expected NAME=VALUE, e.g. window_minutes=5",
        usage(() -> ScanOptions.builder().param("novalue")).getMessage());
  }

  @Test
  void formatsAreParquetCsvOrJsonInAnyCase() {
    assertEquals(
        "Invalid --format 'xml': expected parquet, csv or json",
        usage(() -> OutputFormat.parse("xml")).getMessage());
    assertEquals(OutputFormat.CSV, OutputFormat.parse("CSV"));
  }

  @Test
  void theWindowAndWhereBecomeTheKeyRangesToRead() {
    KeyLayout events = Layouts.shipped("events-v2");
    TimeWindow day = TimeWindow.ofDay("2026-11-29");
    ScanOptions all = ScanOptions.builder().table("t").layout(events).build();
    assertEquals(ReadPlan.Pruning.NONE, all.readPlan().pruning());
    ScanOptions windowOnly = ScanOptions.builder().table("t").layout(events).window(day).build();
    assertEquals(
        ReadPlan.Pruning.CELL_TIME, windowOnly.readPlan().pruning(), "time follows the user id");
    ScanOptions alice =
        ScanOptions.builder().table("t").layout(events).window(day).where("userId=alice").build();
    assertEquals(
        List.of(KeyRangePlanner.entityRange(events, Map.of("userId", "alice"))),
        alice.readPlan().ranges());
    ScanOptions salted =
        ScanOptions.builder()
            .table("t")
            .layout(Layouts.shipped("telemetry-v2"))
            .window(day)
            .build();
    assertEquals(16, salted.readPlan().ranges().size());

    assertTrue(
        usage(() -> ScanOptions.builder().where("userId"))
            .getMessage()
            .contains("expected FIELD=VALUE"));
    String notLeading =
        usage(() -> ScanOptions.builder().table("t").layout(events).where("ts=5").build())
            .getMessage();
    assertTrue(notLeading.startsWith("Cannot scan table t --where {ts=5}: "), notLeading);
    assertTrue(
        notLeading.contains("give the key's leading fields in key order, [userId, ts]"),
        notLeading);
    assertTrue(
        usage(() -> ScanOptions.builder().table("t").layout(events).where("nope=5").build())
            .getMessage()
            .contains("unknown field 'nope'"));
  }

  @Test
  void columnsMergeWithReportsAndMustNotClash() {
    KeyLayout telemetry = Layouts.shipped("telemetry-v2");
    ReportFile report =
        ReportFile.load(SharedHBase.rekeyHome().resolve("sql/device_window_counts.sql"));
    ScanOptions o =
        ScanOptions.builder()
            .table("t")
            .layout(telemetry)
            .column(WideColumn.parse("d:v=long:reading"))
            .report(report)
            .param("window_minutes=15")
            .build();
    assertEquals(List.of("reading", "status"), o.columns().stream().map(WideColumn::name).toList());
    assertEquals("15", o.reportValues().get("window_minutes"));

    assertTrue(
        refusal(telemetry, b -> b.column(WideColumn.parse("d:x=int:reading")).report(report))
            .contains("Column 'reading' defined twice differently"));
    assertTrue(
        refusal(telemetry, b -> b.column(WideColumn.parse("d:ts=long")))
            .contains("clashes with a key field"));
    assertTrue(
        refusal(telemetry, b -> b.column(WideColumn.parse("d:deviceId_hex=string")))
            .contains("clashes with a key field"));
    assertTrue(
        refusal(telemetry, b -> b.column(WideColumn.parse("d:value=long"))).contains("clashes"));
    assertTrue(
        refusal(telemetry, b -> b.families(List.of("e")).report(report))
            .contains("--families [e] leaves out"));
    assertTrue(refusal(telemetry, b -> b.report(report).report(report)).contains("given twice"));
    assertTrue(
        refusal(telemetry, b -> b.report(report).param("to=5"))
            .contains("--param to is set by the scan"));
  }

  @Test
  void aLayoutFieldNamedLikeAViewColumnIsRefused() {
    KeyLayout bad =
        KeyLayout.parse(
            "name: bad\nprefix:\n  kind: none\nfields:\n  - name: family\n    type: string\n",
            "bad.yaml");
    assertTrue(
        usage(() -> ScanOptions.builder().table("t").layout(bad).build())
            .getMessage()
            .contains("its field 'family' has the name of a view column"));
  }
}

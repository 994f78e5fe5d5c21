package dev.rekey.jobs.analyze;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.SplitPoints;
import dev.rekey.testing.Layouts;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Verdicts and recommendations from assembled figures (no cluster). */
@Tag("unit")
class AnalyzerTest {
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");

  private static List<RegionStat> regions(
      List<byte[]> splits, List<String> servers, long writesInLast) {
    List<RegionStat> out = new ArrayList<>();
    List<byte[]> starts = KeyStats.startKeys(splits);
    for (int i = 0; i < starts.size(); i++) {
      String end = i + 1 < starts.size() ? Hex.of(starts.get(i + 1)) : "";
      out.add(
          new RegionStat(
              i,
              Hex.of(starts.get(i)),
              end,
              servers.get(i % servers.size()),
              0,
              0,
              i == starts.size() - 1 ? writesInLast : 0,
              0,
              0));
    }
    return out;
  }

  @Test
  void theLegacyTableIsAHotspotAndGetsASalt() {
    List<KeySample> s = GeneratedKeys.telemetry(V1, 5000, 50);
    List<ServerStat> servers =
        List.of(new ServerStat("rs1:16020", 1, 0, 10_000, 10_000, List.of()));
    AnalyzeResult r =
        Analyzer.assemble(
            "table telemetry_v1",
            "telemetry_v1",
            V1,
            5000,
            s,
            regions(List.of(), List.of("rs1:16020"), 10_000),
            servers,
            1,
            12,
            null,
            1.0);
    Verdict v = r.verdict();
    assertTrue(v.hotspot());
    assertTrue(
        v.reasons()
            .contains(
                "writes are monotonic in key order: 100.0% of writes (in timestamp order) "
                    + "append above every earlier key, i.e. into the last region"),
        v.reasons().toString());
    assertTrue(
        v.reasons()
            .contains("100% of the last hour's rows are in region 1 of 1 (1 region(s) got any)"),
        v.reasons().toString());
    assertEquals("salt", v.shape());
    assertEquals(16, v.buckets()); // seed 002: 12 servers -> N = 16
    assertEquals(16, v.regions());
    assertTrue(
        v.recommendation().get(0).startsWith("key shape: salt | ts | deviceId"),
        v.recommendation().toString());
    String console = AnalyzeReport.console(r);
    assertTrue(console.contains("verdict: HOTSPOT"), console);
    String html = AnalyzeReport.html(r);
    assertTrue(html.contains("<svg") && !html.contains("<script"), "inline SVG, no scripts");
  }

  /**
   * An entity-first key (events-v2: hash prefix, user, time) gets the date-tiered advice for its
   * nightly window reports; a time-first one (telemetry-v1, which gets a salt) does not.
   */
  @Test
  void entityFirstKeysAreAdvisedDateTieredCompactionForWindowReports() {
    Verdict events =
        Advisor.advise(
            new Advisor.Inputs(
                Layouts.shipped("events-v2"),
                new long[256],
                0.01,
                "the last hour's",
                0,
                0,
                0,
                4,
                4,
                0.13,
                0,
                List.of(),
                1,
                12,
                0));
    assertEquals("none", events.shape());
    assertTrue(events.recommendation().contains(Advisor.DATE_TIERED), events.toString());
    assertTrue(
        Advisor.DATE_TIERED.contains("--family NAME:compaction=date_tiered,window=P1D"),
        Advisor.DATE_TIERED);
    Verdict legacy = legacyOnOneServer();
    assertEquals("salt", legacy.shape());
    assertFalse(legacy.recommendation().contains(Advisor.DATE_TIERED), legacy.toString());
  }

  @Test
  void oneLiveServerAndNoPlanGetsTheSeedsLowerBound() {
    Verdict v = legacyOnOneServer();
    assertEquals(8, v.buckets());
    assertEquals(8, v.regions());
  }

  /** The legacy key's verdict with one live server and no --servers. */
  private static Verdict legacyOnOneServer() {
    List<KeySample> s = GeneratedKeys.telemetry(V1, 1000, 10);
    return assemble(
            "t",
            V1,
            1000,
            s,
            regions(List.of(), List.of("rs1:1"), 1000),
            List.of(new ServerStat("rs1:1", 1, 0, 1000, 1000, List.of())),
            1)
        .verdict();
  }

  @Test
  void oneBusyServerAmongIdleOnesIsAHotspot() {
    List<KeySample> s = GeneratedKeys.telemetry(V1, 2000, 20);
    List<ServerStat> servers =
        List.of(
            new ServerStat("rs1:1", 1, 0, 9_500, 9_500, List.of()),
            new ServerStat("rs2:1", 0, 0, 300, 300, List.of()),
            new ServerStat("rs3:1", 0, 0, 200, 200, List.of()));
    Verdict v =
        assemble("t", null, 2000, s, regions(List.of(), List.of("rs1:1"), 9_500), servers, 3)
            .verdict();
    assertTrue(v.hotspot());
    assertTrue(
        v.reasons()
            .contains(
                "RegionServer rs1:1 takes 95% of the table's write requests; the other 2 are nearly idle"),
        v.reasons().toString());
    assertEquals(4, v.buckets()); // 3 live servers -> 4
  }

  @Test
  void theSaltedTableIsSpreadAndItsTailsArePlaced() {
    List<KeySample> s = GeneratedKeys.telemetry(V2, 8000, 80);
    List<ServerStat> servers =
        List.of(
            new ServerStat("rs1:1", 8, 0, 100, 100, List.of()),
            new ServerStat("rs2:1", 8, 0, 100, 100, List.of()));
    AnalyzeResult r =
        assemble(
            "telemetry_v2",
            V2,
            8000,
            s,
            regions(SplitPoints.salt(16), List.of("rs1:1", "rs2:1"), 0),
            servers,
            2);
    Verdict v = r.verdict();
    assertFalse(v.hotspot(), v.reasons().toString());
    assertEquals("none", v.shape());
    assertEquals(List.of(0, 2, 4, 6, 8, 10, 12, 14), r.servers().get(0).tailBuckets());
    long[] perBucket = new long[16];
    s.forEach(k -> perBucket[k.key()[0]]++);
    long min = java.util.Arrays.stream(perBucket).min().getAsLong();
    long max = java.util.Arrays.stream(perBucket).max().getAsLong();
    assertTrue(
        v.reasons()
            .contains(
                String.format(
                    java.util.Locale.ROOT,
                    "salt buckets: the 16 salt bytes 0x00-0x0f hold "
                        + "between %.1f%% and %.1f%% of the rows each (6.25%% is even)",
                    min / 80.0,
                    max / 80.0)),
        v.reasons().toString());
    assertTrue(
        v.reasons()
            .get(v.reasons().size() - 1)
            .startsWith("salt bucket tails: 16 buckets' last regions sit on 2 of 2"),
        v.reasons().toString());
  }

  @Test
  void tailsClusteredOnOneServerAreFlagged() {
    List<KeySample> s = GeneratedKeys.telemetry(V2, 2000, 20);
    List<ServerStat> servers =
        List.of(
            new ServerStat("rs1:1", 15, 0, 1, 1, List.of()),
            new ServerStat("rs2:1", 1, 0, 1, 1, List.of()));
    List<RegionStat> regs = regions(SplitPoints.salt(16), List.of("rs1:1"), 0);
    regs.set(15, new RegionStat(15, regs.get(15).startKeyHex(), "", "rs2:1", 0, 0, 0, 0, 0));
    Verdict v = assemble("t", V2, 2000, s, regs, servers, 2).verdict();
    assertTrue(v.hotspot());
    assertTrue(
        v.reasons()
            .get(v.reasons().size() - 1)
            .endsWith(
                "rs1:1 hosts 15 (fair share 8): rebalance (move regions) " + "so the tails spread"),
        v.reasons().toString());
  }

  /**
   * Table {@code table}'s statistics assembled with no planned server count or simulation, read in
   * a second.
   */
  private static AnalyzeResult assemble(
      String table,
      KeyLayout layout,
      long rows,
      List<KeySample> samples,
      List<RegionStat> regions,
      List<ServerStat> servers,
      int liveServers) {
    return Analyzer.assemble(
        "table " + table,
        table,
        layout,
        rows,
        samples,
        regions,
        servers,
        liveServers,
        null,
        null,
        1);
  }
}

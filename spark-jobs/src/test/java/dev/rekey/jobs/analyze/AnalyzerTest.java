package dev.rekey.jobs.analyze;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.Json;
import dev.rekey.rowkey.Hex;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.SplitPoints;
import dev.rekey.testing.Layouts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Verdicts and recommendations from assembled figures (no cluster). */
@Tag("unit")
class AnalyzerTest {
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");
  private static final KeyLayout BY_DEVICE = Layouts.shipped("telemetry-by-device");

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
    assertEquals(Verdict.Outcome.HOTSPOT, v.outcome());
    assertTrue(
        v.reasons()
            .contains(
                "writes are monotonic in key order: 100.0% of writes (in timestamp order) "
                    + "append above every earlier key, i.e. into the last region"),
        v.reasons().toString());
    // one region and one server hold every write whatever the key: neither is the evidence
    assertTrue(
        v.reasons()
            .contains(
                "the table has one region, so every write lands in it: how writes spread over"
                    + " regions cannot be judged until it is split"),
        v.reasons().toString());
    assertTrue(v.reasons().contains(ONE_SERVER), v.reasons().toString());
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
                1000,
                0.01,
                "the last hour's",
                100,
                0,
                0.3,
                4,
                4,
                null,
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
    assertEquals(Verdict.Outcome.NO_HOTSPOT, v.outcome());
    assertEquals("none", v.shape());
    assertTrue(v.recommendation().get(0).startsWith("key shape: keep it"), v.toString());
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
                        + "between %.1f%% and %.1f%% of the rows each (6.25%% is even): even,"
                        + " the prefix spreads the rows",
                    min / 80.0,
                    max / 80.0)),
        v.reasons().toString());
    assertTrue(
        v.reasons()
            .get(v.reasons().size() - 1)
            .startsWith("salt bucket tails: 16 buckets' last regions sit on 2 of 2"),
        v.reasons().toString());
  }

  private static final String ONE_SERVER =
      "one live RegionServer: write spread across servers cannot be judged (it hosts every"
          + " region, whatever the key)";

  /**
   * The demo's step 7: telemetry_v2 right after the backfill, on the embedded server's one
   * RegionServer, spread evenly over its 16 salt buckets; the newest cells are a few updates
   * written hours after the readings, so the last hour holds one sampled row. One row in region 3
   * of 16 is what an even spread gives every time, and one server takes every write whatever the
   * key: too few recent rows to judge, and the salt is kept.
   */
  @Test
  void theSaltedTableRightAfterTheBackfillHasTooFewRecentRowsToJudge() {
    List<KeySample> s = new ArrayList<>(GeneratedKeys.telemetry(V2, 5000, 25));
    long later = GeneratedKeys.DAY_START + 2 * GeneratedKeys.DAY_MS;
    s.add(
        new KeySample(V2.encode(Map.of("ts", later, "deviceId", GeneratedKeys.device(7))), later));
    List<ServerStat> oneServer = List.of(new ServerStat("rs1:1", 16, 0, 5_100, 5_100, List.of()));
    AnalyzeResult r =
        Analyzer.assemble(
            "table telemetry_v2",
            "telemetry_v2",
            V2,
            5001,
            s,
            regions(SplitPoints.salt(16), List.of("rs1:1"), 0),
            oneServer,
            1,
            12,
            null,
            1);
    Verdict v = r.verdict();
    assertEquals(Verdict.Outcome.CANNOT_JUDGE, v.outcome(), v.toString());
    assertFalse(v.hotspot());
    assertEquals("not enough recent rows to judge: 1 sampled, need 30", v.headline());
    assertTrue(
        v.reasons().stream()
            .anyMatch(
                x ->
                    x.startsWith("100% of the last hour's rows are in region ")
                        && x.endsWith(
                            "judged on 1 sampled row(s): too few to tell from chance (need 30)")),
        v.reasons().toString());
    assertTrue(v.reasons().contains(ONE_SERVER), v.reasons().toString());
    assertEquals("none", v.shape());
    assertEquals(0, v.buckets());
    assertEquals(16, v.regions());
    assertTrue(
        v.recommendation()
            .get(0)
            .startsWith(
                "key shape: keep it — its salt (16 buckets) spreads the rows evenly, and a new key"
                    + " would only cost a rekey"),
        v.recommendation().toString());
    String console = AnalyzeReport.console(r);
    assertTrue(
        console.contains("verdict: not enough recent rows to judge: 1 sampled, need 30"), console);
    assertFalse(console.contains("HOTSPOT"), console);
    assertTrue(console.contains("recommendation: none, 16 regions"), console);
    assertTrue(Json.MAPPER.valueToTree(r).get("verdict").get("hotspot").isBoolean());
  }

  /** The same salted table with a whole hour of recent rows, on one server: no hotspot. */
  @Test
  void theSaltedTableOnOneServerIsNoHotspot() {
    List<KeySample> s = GeneratedKeys.telemetry(V2, 5000, 25);
    Verdict v =
        assemble(
                "telemetry_v2",
                V2,
                5000,
                s,
                regions(SplitPoints.salt(16), List.of("rs1:1"), 0),
                List.of(new ServerStat("rs1:1", 16, 0, 5_000, 5_000, List.of())),
                1)
            .verdict();
    assertEquals(Verdict.Outcome.NO_HOTSPOT, v.outcome(), v.toString());
    assertTrue(v.reasons().contains(ONE_SERVER), v.reasons().toString());
    assertEquals("none", v.shape());
  }

  /**
   * A hash-prefixed key over many devices (telemetry-by-device), pre-split on its prefix: the
   * recent rows spread over the regions, the prefix fills the byte space evenly, no hotspot and no
   * new key.
   */
  @Test
  void theHashPrefixedTableIsSpread() {
    List<KeySample> s = GeneratedKeys.telemetry(BY_DEVICE, 8000, 2000);
    List<String> servers = List.of("rs1:1", "rs2:1", "rs3:1", "rs4:1");
    Verdict v =
        assemble(
                "telemetry_by_device",
                BY_DEVICE,
                8000,
                s,
                regions(BY_DEVICE.splitPoints(16), servers, 0),
                servers.stream()
                    .map(n -> new ServerStat(n, 4, 0, 2_000, 2_000, List.of()))
                    .toList(),
                4)
            .verdict();
    assertEquals(Verdict.Outcome.NO_HOTSPOT, v.outcome(), v.toString());
    assertEquals("none", v.shape());
    assertTrue(
        v.reasons().stream()
            .anyMatch(
                x ->
                    x.startsWith("leading byte: ")
                        && x.endsWith(": even, the prefix spreads the rows")),
        v.reasons().toString());
    assertTrue(v.recommendation().get(0).startsWith("key shape: keep it"), v.toString());
  }

  /**
   * One device writes 90% of the readings into a hash-prefixed table: its rows share one prefix, so
   * the recent rows sit in one region far beyond chance. That is a hotspot, and a new hash of the
   * device would cluster the same: the advice is a salt over the whole natural key (device and
   * time), which spreads one device's rows over N buckets, at the cost of N range scans for its
   * history.
   */
  @Test
  void oneHotEntityIsAHotspotThatOnlyASaltOverTheWholeKeySpreads() {
    List<KeySample> s = new ArrayList<>();
    for (int i = 0; i < 8000; i++) {
      long ts = GeneratedKeys.ts(i, 8000);
      int device = i % 10 == 9 ? 1 + (i / 10) % 200 : 0;
      s.add(
          new KeySample(
              BY_DEVICE.encode(Map.of("ts", ts, "deviceId", GeneratedKeys.device(device))), ts));
    }
    List<String> servers = List.of("rs1:1", "rs2:1", "rs3:1", "rs4:1");
    Verdict v =
        assemble(
                "telemetry_by_device",
                BY_DEVICE,
                8000,
                s,
                regions(BY_DEVICE.splitPoints(16), servers, 0),
                servers.stream()
                    .map(n -> new ServerStat(n, 4, 0, 2_000, 2_000, List.of()))
                    .toList(),
                4)
            .verdict();
    assertEquals(Verdict.Outcome.HOTSPOT, v.outcome(), v.toString());
    assertTrue(
        v.reasons()
            .contains(
                "one entity has 90% of the last hour's rows: deviceId 0x"
                    + Hex.of(GeneratedKeys.device(0))),
        v.reasons().toString());
    assertTrue(
        v.reasons().stream().anyMatch(x -> x.contains("even spread over 16 regions would do that")),
        v.reasons().toString());
    assertEquals("salt", v.shape());
    assertEquals(4, v.buckets()); // 4 live servers -> 4
    assertTrue(
        v.recommendation()
            .get(0)
            .startsWith("key shape: salt | deviceId | ts with the salt over the whole natural key"),
        v.recommendation().toString());
    assertTrue(v.recommendation().contains(Advisor.DATE_TIERED), v.toString());
  }

  /** Ten sampled rows: no verdict either way. */
  @Test
  void tooFewSampledRowsAreNotJudged() {
    List<KeySample> s = GeneratedKeys.telemetry(V1, 10, 10);
    Verdict v =
        assemble(
                "t",
                V1,
                10,
                s,
                regions(List.of(), List.of("rs1:1"), 10),
                List.of(new ServerStat("rs1:1", 1, 0, 10, 10, List.of())),
                1)
            .verdict();
    assertEquals(Verdict.Outcome.CANNOT_JUDGE, v.outcome(), v.toString());
    assertEquals("not enough sampled rows to judge: 10 sampled, need 30", v.headline());
    assertEquals("none", v.shape());
  }

  /**
   * The significance rule on its own: 24 of 30 recent rows (80%) in one of 2 regions happens by
   * chance with odds about 1 in 700, not a hotspot; 33 of 40 (82.5%) about 1 in 23,000, a hotspot.
   */
  @Test
  void aConcentrationCountsOnlyBeyondChance() {
    Verdict chance = Advisor.advise(twoRegions(30, 0.8));
    assertEquals(Verdict.Outcome.NO_HOTSPOT, chance.outcome(), chance.toString());
    assertTrue(
        chance.reasons().stream().anyMatch(x -> x.contains("no more than chance")),
        chance.reasons().toString());
    Verdict hot = Advisor.advise(twoRegions(40, 0.825));
    assertEquals(Verdict.Outcome.HOTSPOT, hot.outcome(), hot.toString());
    assertEquals("hash_prefix", hot.shape());
  }

  /** An unprefixed entity-first key's figures: recent rows over 2 regions on 2 quiet servers. */
  private static Advisor.Inputs twoRegions(long recentRows, double topShare) {
    long[] hist = new long[256];
    hist[0x10] = 500;
    hist[0x90] = 500;
    return new Advisor.Inputs(
        null,
        hist,
        1000,
        0.05,
        "the last hour's",
        recentRows,
        0,
        topShare,
        2,
        2,
        null,
        0.5,
        0,
        List.of(
            new ServerStat("rs1:1", 1, 0, 10, 10, List.of()),
            new ServerStat("rs2:1", 1, 0, 10, 10, List.of())),
        2,
        null,
        0);
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

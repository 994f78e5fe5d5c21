package dev.rekey.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.LayoutFiles;
import dev.rekey.common.RekeyException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A campaign plan read and checked whole, without a cluster. */
@Tag("unit")
class PlanParserTest {
  static final String GOOD =
      """
      version: 1
      name: demo
      jobs_at_once: 2
      staging_root: /tmp/staging
      report_root: /tmp/reports
      shard_above: 10g
      tables:
        - source: {table: telemetry_v1}
          old_layout: telemetry-v1
          targets:
            - table: telemetry_v2
              layout: telemetry-v2
              splits: salt
              families: ["d:bloom=row,encoding=fast_diff"]
              settings: {COMPACTION_ENABLED: false}
            - table: telemetry_by_device
              layout: telemetry-by-device
              regions: 8
              families: [d]
          backfill: {versions: all, verify: files}
          reconcile: {bucket: 1h, digest: true}
          repair: true
        - source: {snapshot: events_snap}
          old_layout: telemetry-v1
          targets:
            - {table: t3, layout: telemetry-v2, splits: salt, families: [d]}
          reconcile: {bucket: 1d, from: "2026-01-01T00:00:00Z", to: "2026-01-02T00:00:00Z"}
          repair: false
          shards: 3
      """;

  static CampaignPlan parse(String text) {
    return new PlanParser(Path.of("plan.yaml"), LayoutFiles::load).parse(text);
  }

  static String problems(String text) {
    RekeyException e = assertThrows(RekeyException.class, () -> parse(text));
    assertEquals(2, e.exitCode(), e.getMessage());
    assertTrue(e.getMessage().contains("nothing was run"), e.getMessage());
    return e.getMessage();
  }

  @Test
  void readsAWholePlan() {
    CampaignPlan p = parse(GOOD);
    assertEquals("demo", p.name());
    assertEquals(2, p.jobsAtOnce());
    assertEquals(10L << 30, p.shardAbove());
    assertEquals("/tmp/staging/demo/_campaign", p.stateDirOrDefault());
    assertEquals(2, p.tables().size());
    CampaignPlan.TablePlan t = p.tables().get(0);
    assertEquals("telemetry_v1", t.id());
    assertEquals("telemetry_v1", t.sourceTable());
    assertNull(t.shards());
    assertEquals(2, t.targets().size());
    assertEquals(15, t.targets().get(0).splitPoints().size(), "one region per salt bucket");
    assertEquals("false", t.targets().get(0).settings().get("COMPACTION_ENABLED"));
    assertEquals(7, t.targets().get(1).splitPoints().size());
    assertEquals("1h", t.reconcile().bucket());
    CampaignPlan.TablePlan s = p.tables().get(1);
    assertEquals("events_snap", s.id());
    assertEquals("events_snap", s.sourceSnapshot());
    assertEquals(3, s.shards());
    assertEquals(false, s.repair());
  }

  @Test
  void everyProblemIsOneLineNamingWhere() {
    String bad =
        GOOD.replace("layout: telemetry-by-device", "layout: no-such-layout")
            .replace("table: t3", "table: telemetry_v2")
            .replace("jobs_at_once: 2", "jobs_at_once: 0")
            .replace("bucket: 1h", "bucket: often")
            .replace("repair: true", "repair: true\n    colour: blue");
    String m = problems(bad);
    assertTrue(m.contains("has 5 problem(s)"), m);
    assertTrue(m.contains("\n  tables[0].targets[1].layout: "), m);
    assertTrue(m.contains("no-such-layout"), m);
    assertTrue(
        m.contains(
            "tables[1].targets[0].table: telemetry_v2 is a target of tables[0].targets[0]"
                + " already"),
        m);
    assertTrue(m.contains("jobs_at_once: must be in 1..64, got 0"), m);
    assertTrue(m.contains("tables[0].reconcile.bucket: "), m);
    assertTrue(m.contains("tables[0].colour: unknown key (allowed here: "), m);
  }

  @Test
  void aTargetLayoutTheOldLayoutCannotFeedIsRefused() throws Exception {
    Path events = Path.of(LayoutFiles.layoutsDir().toString(), "events-v2.yaml");
    assertTrue(Files.exists(events));
    String m = problems(GOOD.replaceFirst("layout: telemetry-v2", "layout: events-v2"));
    assertTrue(m.contains("tables[0].targets[0].layout: "), m);
    assertTrue(m.contains("pick a layout whose fields old_layout has"), m);
  }

  @Test
  void sourceGivenTwiceOrBothWaysOrMissingPiecesAreRefused() {
    String m =
        problems(
            """
            version: 2
            name: "a b"
            staging_root: /s
            report_root: /r
            tables:
              - source: {table: a, snapshot: b}
                old_layout: telemetry-v1
                targets: []
                reconcile: {bucket: 1h}
            """);
    assertTrue(m.contains("version: expected 1"), m);
    assertTrue(m.contains("name: 'a b' may hold only"), m);
    assertTrue(m.contains("tables[0].source: give exactly one of table: or snapshot:"), m);
    assertTrue(m.contains("tables[0].targets: give a list of one or more new tables"), m);
  }

  @Test
  void notYamlIsAUsageError() {
    RekeyException e = assertThrows(RekeyException.class, () -> parse("tables: [unclosed"));
    assertEquals(2, e.exitCode());
    assertTrue(e.getMessage().contains("not valid YAML"), e.getMessage());
  }

  @Test
  void sizes() {
    assertEquals(10L << 30, PlanParser.bytes("10g"));
    assertEquals(512L << 20, PlanParser.bytes("512MB"));
    assertEquals(1234, PlanParser.bytes("1234"));
    assertThrows(IllegalArgumentException.class, () -> PlanParser.bytes("lots"));
  }

  @Test
  void theShippedExamplePlanReads() {
    Path example = LayoutFiles.layoutsDir().getParent().resolve("campaigns/demo.yaml");
    CampaignPlan p = new PlanParser(example, LayoutFiles::load).read();
    assertTrue(p.tables().size() >= 2, "tables of " + example);
  }
}

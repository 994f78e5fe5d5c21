package dev.rekey.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rekey.campaign.CampaignState.Status;
import dev.rekey.campaign.CampaignState.StepRecord;
import dev.rekey.campaign.CampaignStatus.Verdict;
import dev.rekey.common.Json;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Where a campaign stands, from its plan and state: verdicts, exit codes, JSON and the page. */
@Tag("unit")
class CampaignStatusTest {
  private static final CampaignPlan PLAN = PlanParserTest.parse(PlanParserTest.GOOD);

  private static StepRecord step(String id, Status s, Long rows, String result) {
    return new StepRecord(
        id, s, "2026-12-01T10:00:00Z", "2026-12-01T10:00:05Z", 5.0, rows, result, null);
  }

  private static CampaignState greenFirstTable() {
    CampaignState s = CampaignState.empty("demo");
    for (StepRecord r :
        List.of(
            step("create-table telemetry_v2", Status.DONE, null, "created"),
            step("create-table telemetry_by_device", Status.DONE, null, "created"),
            step("snapshot", Status.DONE, null, "taken"),
            step("backfill", Status.DONE, 1000L, "verified"),
            step("reconcile telemetry_v2", Status.DONE, 1000L, "green"),
            step("reconcile telemetry_by_device", Status.DIFFERS, 1000L, "1 of 24 differ"),
            step("repair telemetry_by_device", Status.DONE, null, "matches"),
            step("reconcile-again telemetry_by_device", Status.DONE, 1000L, "green"))) {
      s = s.with("telemetry_v1", r);
    }
    return s;
  }

  @Test
  void stepsInOrder() {
    List<String> ids = StepKey.planned(PLAN.tables().get(1), 3).stream().map(StepKey::id).toList();
    assertEquals(
        List.of(
            "create-table t3",
            "snapshot",
            "backfill 1/3",
            "backfill 2/3",
            "backfill 3/3",
            "reconcile t3"),
        ids);
  }

  @Test
  void shardCountFromThePlanOrTheSize() {
    assertEquals(3, StepKey.shards(3, Long.MAX_VALUE, 10, 16));
    assertEquals(2, StepKey.shards(3, Long.MAX_VALUE, 10, 2), "no more shards than regions");
    assertEquals(1, StepKey.shards(null, 100, 100, 16), "at the threshold: whole");
    assertEquals(4, StepKey.shards(null, 100, 301, 16));
    assertEquals(1, StepKey.shards(null, Long.MAX_VALUE, 1L << 40, 16));
  }

  @Test
  void aRepairedTableIsGreenTheOtherNotStartedSoTheCampaignIsIncomplete() {
    CampaignStatus s = CampaignStatus.of(PLAN, greenFirstTable(), "file:/s/state.json");
    assertEquals(Verdict.GREEN, s.tables().get(0).verdict());
    assertEquals(1000L, s.tables().get(0).rows());
    assertEquals(Verdict.NOT_STARTED, s.tables().get(1).verdict());
    assertEquals(Verdict.INCOMPLETE, s.verdict());
    assertEquals(1, s.exitCode());
  }

  @Test
  void exitCodes() {
    CampaignState s = greenFirstTable();
    for (String id :
        List.of("create-table t3", "snapshot", "backfill 1/3", "backfill 2/3", "backfill 3/3")) {
      s = s.with("events_snap", step(id, Status.DONE, 10L, "ok"));
    }
    CampaignState green = s.with("events_snap", step("reconcile t3", Status.DONE, 30L, "green"));
    assertEquals(0, CampaignStatus.of(PLAN, green, "f").exitCode());
    assertEquals(30L, CampaignStatus.of(PLAN, green, "f").tables().get(1).rows());
    // no repair in the plan: a difference stays one
    CampaignState differs =
        s.with("events_snap", step("reconcile t3", Status.DIFFERS, 30L, "2 differ"));
    assertEquals(Verdict.DIFFERS, CampaignStatus.of(PLAN, differs, "f").verdict());
    assertEquals(3, CampaignStatus.of(PLAN, differs, "f").exitCode());
    CampaignState failed =
        s.with("events_snap", step("reconcile t3", Status.FAILED, null, "failed"));
    assertEquals(1, CampaignStatus.of(PLAN, failed, "f").exitCode());
    // a killed run leaves RUNNING: incomplete, and the step runs again
    CampaignState killed = s.with("events_snap", step("reconcile t3", Status.RUNNING, null, null));
    assertEquals(
        Verdict.INCOMPLETE, CampaignStatus.of(PLAN, killed, "f").tables().get(1).verdict());
    assertEquals("reconcile t3", CampaignStatus.of(PLAN, killed, "f").tables().get(1).step());
    assertFalse(Status.RUNNING.ended());
    assertFalse(Status.FAILED.ended());
  }

  @Test
  void jsonIsVersionedAndNamesEveryStep() throws Exception {
    JsonNode j =
        Json.MAPPER.readTree(CampaignStatus.of(PLAN, greenFirstTable(), "file:/s").toJson());
    assertEquals("rekey.campaign.status", j.get("schema").asText());
    assertEquals(1, j.get("version").asInt());
    assertEquals("INCOMPLETE", j.get("verdict").asText());
    JsonNode t = j.get("tables").get(0);
    assertEquals("telemetry_v1", t.get("id").asText());
    assertEquals("GREEN", t.get("verdict").asText());
    assertEquals(8, t.get("steps").size());
    assertEquals("backfill", t.get("steps").get(3).get("step").asText());
    assertEquals(1000, t.get("steps").get(3).get("rows").asLong());
  }

  @Test
  void stateRoundTripsThroughJson() throws Exception {
    CampaignState s = greenFirstTable();
    CampaignState back =
        Json.MAPPER.readValue(Json.PRETTY.writeValueAsBytes(s), CampaignState.class);
    assertEquals(s, back);
  }

  @Test
  void pageHasNoScriptsAndEscapes() {
    String html = CampaignStatus.of(PLAN, greenFirstTable(), "file:/s/<state>").html();
    assertFalse(html.contains("<script"));
    assertTrue(html.contains("&lt;state&gt;"));
    assertTrue(html.contains("reconcile-again telemetry_by_device"));
  }
}

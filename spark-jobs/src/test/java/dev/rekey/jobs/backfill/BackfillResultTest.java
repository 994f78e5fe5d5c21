package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.ExitCodes;
import dev.rekey.jobs.backfill.staging.RegionEntry;
import dev.rekey.jobs.backfill.staging.RegionState;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a backfill prints and writes as _result.json, per outcome (a dry run, written only, loaded
 * and verified, loaded and not verified): the console lines, the JSON fields and their order, and
 * the exit code.
 */
@Tag("unit")
class BackfillResultTest {
  private static final List<RegionEntry> REGIONS =
      List.of(
          new RegionEntry(0, "r0", "", "80", 10, 20, 2000, 1, RegionState.VERIFIED),
          new RegionEntry(1, "r1", "80", "", 5, 10, 1000, 2, RegionState.LOADED));

  private static final Accounting ACCOUNTING = new Accounting(16, 15, 1, 0);

  static BackfillResult dryRun() {
    return new BackfillResult(
        "T",
        "S",
        "/s",
        "in source order",
        BackfillResult.Outcome.PLANNED,
        ACCOUNTING,
        "all",
        3,
        REGIONS,
        BackfillResult.Timings.NONE,
        "Note: an earlier load");
  }

  static BackfillResult notVerified() {
    return new BackfillResult(
        "T",
        "S",
        "/s",
        "in source order",
        BackfillResult.Outcome.of(true, REGIONS),
        ACCOUNTING,
        "all",
        0,
        REGIONS,
        new BackfillResult.Timings(1.5, 2.0, 0.25),
        null);
  }

  @Test
  void theOutcomeIsHowFarTheRegionsGot() {
    List<RegionEntry> verified =
        REGIONS.stream().map(r -> r.withState(RegionState.VERIFIED)).toList();
    List<RegionEntry> written =
        REGIONS.stream().map(r -> r.withState(RegionState.WRITTEN)).toList();
    assertEquals(BackfillResult.Outcome.VERIFIED, BackfillResult.Outcome.of(true, verified));
    assertEquals(BackfillResult.Outcome.NOT_VERIFIED, BackfillResult.Outcome.of(true, REGIONS));
    assertEquals(BackfillResult.Outcome.WRITTEN, BackfillResult.Outcome.of(false, written));
  }

  @Test
  void aDryRunPrintsThePlanWithoutTimings() {
    BackfillResult r = dryRun();
    assertEquals(
        String.join(
            "\n",
            "Plan (dry run) for T from snapshot S (staging /s)",
            "  in source order",
            "  region start key (hex)                            rows        cells          bytes"
                + "  files  state",
            "  0      (first)                                      10           20          2,000"
                + "      1  VERIFIED",
            "  1      80                                            5           10          1,000"
                + "      2  LOADED",
            "  " + r.skew().line(),
            "  read 16 = written 15 + quarantined 1 + filtered 0",
            "  versions per column copied: all; 3 older cell versions not copied (beyond the"
                + " target families' VERSIONS)",
            "  Note: an earlier load",
            ""),
        r.console());
    assertEquals(ExitCodes.OK, r.exitCode());
  }

  @Test
  void loadedCellsNotFoundMakeExitCodeThreeAndNameTheRegions() {
    BackfillResult r = notVerified();
    List<String> lines = r.lines();
    assertEquals("Backfill of T from snapshot S (staging /s)", lines.get(0));
    assertEquals(
        "  3 HFiles; write 1.5 s, load 2.0 s, verify 0.3 s; loaded=true verified=false",
        lines.get(lines.size() - 2));
    assertEquals(
        "Backfill of T not verified: cells written are missing from the table in region(s) [1"
            + " [80, )]; their HFiles are kept in the staging dir. Rerun with --resume to load and"
            + " verify them again.",
        lines.get(lines.size() - 1));
    assertEquals(ExitCodes.MISMATCH, r.exitCode());
  }

  /** _result.json as the backfill wrote it before its outcome was an enum: the same text. */
  @Test
  void theJsonKeepsItsFieldsTheirOrderAndValues() {
    assertEquals(
        """
        {
          "targetTable" : "T",
          "sourceSnapshot" : "S",
          "staging" : "/s",
          "writePath" : "in source order",
          "dryRun" : false,
          "loaded" : true,
          "verified" : false,
          "accounting" : {
            "read" : 16,
            "written" : 15,
            "quarantined" : 1,
            "filtered" : 0
          },
          "versions" : "all",
          "olderVersionsNotCopied" : 0,
          "regions" : [ {
            "index" : 0,
            "name" : "r0",
            "startHex" : "",
            "endHex" : "80",
            "rows" : 10,
            "cells" : 20,
            "bytes" : 2000,
            "files" : 1,
            "state" : "VERIFIED"
          }, {
            "index" : 1,
            "name" : "r1",
            "startHex" : "80",
            "endHex" : "",
            "rows" : 5,
            "cells" : 10,
            "bytes" : 1000,
            "files" : 2,
            "state" : "LOADED"
          } ],
          "skew" : {
            "maxRows" : 10,
            "meanRows" : 7.5,
            "ratio" : 1.3333333333333333
          },
          "filesWritten" : 3,
          "writeSeconds" : 1.5,
          "loadSeconds" : 2.0,
          "verifySeconds" : 0.25,
          "earlierLoad" : null
        }""",
        notVerified().toJson());
    String dry = dryRun().toJson();
    assertTrue(
        dry.contains(
            "\"writePath\" : \"in source order\",\n  \"dryRun\" : true,\n  \"loaded\" : false,\n"
                + "  \"verified\" : false,\n"),
        dry);
    assertTrue(
        dry.endsWith(
            "\"filesWritten\" : 3,\n  \"writeSeconds\" : 0.0,\n  \"loadSeconds\" : 0.0,\n"
                + "  \"verifySeconds\" : 0.0,\n  \"earlierLoad\" : \"Note: an earlier load\"\n}"),
        dry);
  }
}

package dev.rekey.jobs.backfill.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.TimeWindow;
import dev.rekey.jobs.backfill.load.LoadRecord;
import dev.rekey.jobs.backfill.load.LoadRecord.State;
import dev.rekey.jobs.backfill.plan.RepeatedLoad.Attempt;
import dev.rekey.jobs.backfill.plan.RepeatedLoad.Decision;
import dev.rekey.jobs.backfill.plan.RepeatedLoad.Verdict;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RepeatedLoadTest {
  private static final long CREATED = 1_764_374_400_000L; // 2025-11-29T00:00:00Z
  private static final String A = "file:/staging/a";
  private static final String B = "file:/staging/b";
  private static final String WRITTEN = "2026-12-01T10:00:00.123456Z";

  private static LoadRecord record(String staging, State state, String at) {
    return new LoadRecord(
        "snap", CREATED, staging, WRITTEN, at, state, 2_000, 0, Long.MAX_VALUE, List.of(), "h 1 t");
  }

  private static final LoadRecord VERIFIED_IN_A = record(A, State.VERIFIED, "2026-12-01T10:05:00Z");

  /** A fresh run of the whole snapshot into T with staging dir {@code staging}. */
  private static Attempt fresh(String staging) {
    return new Attempt(
        "T", "snap", CREATED, TimeWindow.ALL, List.of(), staging, null, false, false, false);
  }

  private static Attempt resume(String staging, String writtenAt) {
    return new Attempt(
        "T", "snap", CREATED, TimeWindow.ALL, List.of(), staging, writtenAt, false, false, false);
  }

  @Test
  void noRecordOrARecordOfAnotherSnapshotGoes() {
    assertEquals(Verdict.GO, RepeatedLoad.decide(List.of(), fresh(A)).verdict());
    Attempt retaken =
        new Attempt(
            "T", "snap", CREATED + 1, TimeWindow.ALL, List.of(), A, null, false, false, false);
    assertEquals(
        Verdict.GO,
        RepeatedLoad.decide(List.of(VERIFIED_IN_A), retaken).verdict(),
        "a snapshot taken again under the same name is another snapshot");
  }

  @Test
  void aRepeatWithTheSameOrAnotherStagingDirIsRefusedNamingTheRunAndTheChoices() {
    String expected =
        "Cannot backfill T: snapshot snap (taken 2025-11-29T00:00:00Z) was loaded into T by the run"
            + " recorded at 2026-12-01T10:05:00Z (staging dir file:/staging/a, 2,000 rows,"
            + " verified, by h 1 t); loading it again would put every cell in the table twice"
            + " until a major compaction (rerun with --resume --staging file:/staging/a to check"
            + " it, or with --load-again to load it a second time on purpose)";
    for (String staging : List.of(A, B)) {
      Decision d = RepeatedLoad.decide(List.of(VERIFIED_IN_A), fresh(staging));
      assertEquals(Verdict.REFUSE, d.verdict());
      assertEquals(expected, d.message());
      assertEquals(VERIFIED_IN_A, d.earlier().orElseThrow());
    }
  }

  @Test
  void aLoadThatDidNotFinishPointsAtItsResume() {
    Decision d =
        RepeatedLoad.decide(List.of(record(A, State.LOADING, "2026-12-01T10:05:00Z")), fresh(B));
    assertEquals(Verdict.REFUSE, d.verdict());
    assertEquals(
        "Cannot backfill T: snapshot snap (taken 2025-11-29T00:00:00Z) was loaded into T by the run"
            + " recorded at 2026-12-01T10:05:00Z (staging dir file:/staging/a, 2,000 rows, load"
            + " not finished, by h 1 t); loading it again would put every cell in the table twice"
            + " until a major compaction (its load did not finish: rerun with --resume --staging"
            + " file:/staging/a to load the rest and verify it, or with --load-again to load"
            + " everything a second time on purpose)",
        d.message());
  }

  @Test
  void aResumeOfTheRecordedRunGoesAndAnyOtherResumeIsRefusedNamingTheRunsStagingDir() {
    LoadRecord loading = record(A, State.LOADING, "2026-12-01T10:05:00Z");
    assertEquals(Verdict.GO, RepeatedLoad.decide(List.of(loading), resume(A, WRITTEN)).verdict());
    assertEquals(
        Verdict.GO, RepeatedLoad.decide(List.of(VERIFIED_IN_A), resume(A, WRITTEN)).verdict());

    Decision elsewhere = RepeatedLoad.decide(List.of(VERIFIED_IN_A), resume(B, WRITTEN));
    assertEquals(Verdict.REFUSE, elsewhere.verdict());
    assertEquals(
        "Cannot resume the backfill of T in staging dir file:/staging/b: snapshot snap (taken"
            + " 2025-11-29T00:00:00Z) was loaded into T by the run recorded at"
            + " 2026-12-01T10:05:00Z (staging dir file:/staging/a, 2,000 rows, verified, by h 1"
            + " t), whose ledger is in staging dir file:/staging/a; loading it again would put"
            + " every cell in the table twice until a major compaction (rerun with --resume"
            + " --staging file:/staging/a to check it, or with --load-again to load it a second"
            + " time on purpose)",
        elsewhere.message());
    // the same dir holding another write since (a --no-load run): its files are a second load
    assertEquals(
        Verdict.REFUSE,
        RepeatedLoad.decide(List.of(VERIFIED_IN_A), resume(A, "2026-12-02T00:00:00Z")).verdict());
  }

  @Test
  void runsThatLoadNothingOrAskToLoadAgainGoWithANote() {
    Attempt dry =
        new Attempt("T", "snap", CREATED, TimeWindow.ALL, List.of(), B, null, true, false, false);
    Decision d = RepeatedLoad.decide(List.of(VERIFIED_IN_A), dry);
    assertEquals(Verdict.NOTE, d.verdict());
    assertEquals(
        "Note: snapshot snap (taken 2025-11-29T00:00:00Z) was loaded into T by the run recorded at"
            + " 2026-12-01T10:05:00Z (staging dir file:/staging/a, 2,000 rows, verified, by h 1"
            + " t); a backfill of it will be refused (--resume --staging file:/staging/a checks"
            + " that run; --load-again loads it a second time on purpose)",
        d.message());

    Attempt noLoad =
        new Attempt("T", "snap", CREATED, TimeWindow.ALL, List.of(), B, null, false, true, false);
    Decision n = RepeatedLoad.decide(List.of(VERIFIED_IN_A), noLoad);
    assertEquals(Verdict.NOTE, n.verdict());
    assertTrue(
        n.message().endsWith("and a --resume will load them only with --load-again"), n.message());

    Attempt again =
        new Attempt("T", "snap", CREATED, TimeWindow.ALL, List.of(), A, null, false, false, true);
    Decision g = RepeatedLoad.decide(List.of(VERIFIED_IN_A), again);
    assertEquals(Verdict.NOTE, g.verdict());
    assertTrue(
        g.message().startsWith("Loading again on purpose (--load-again): snapshot snap"),
        g.message());
    // a resume of another dir's files, asked for
    Attempt resumeAgain =
        new Attempt(
            "T", "snap", CREATED, TimeWindow.ALL, List.of(), B, WRITTEN, false, false, true);
    assertEquals(Verdict.NOTE, RepeatedLoad.decide(List.of(VERIFIED_IN_A), resumeAgain).verdict());
  }

  @Test
  void partsOfASnapshotByTimeOrFamilyAreNotRepeatsOfEachOther() {
    LoadRecord morning =
        new LoadRecord(
            "snap",
            CREATED,
            A,
            WRITTEN,
            "2026-12-01T10:05:00Z",
            State.VERIFIED,
            10,
            0,
            100,
            List.of("d"),
            null);
    assertEquals(Verdict.GO, decideFor(morning, new TimeWindow(100, 200), List.of()));
    assertEquals(Verdict.REFUSE, decideFor(morning, new TimeWindow(99, 200), List.of()));
    assertEquals(Verdict.GO, decideFor(morning, TimeWindow.ALL, List.of("e")));
    assertEquals(Verdict.REFUSE, decideFor(morning, TimeWindow.ALL, List.of("e", "d")));
    assertEquals(Verdict.REFUSE, decideFor(morning, TimeWindow.ALL, List.of()));
  }

  private static Verdict decideFor(LoadRecord r, TimeWindow w, List<String> families) {
    return RepeatedLoad.decide(
            List.of(r),
            new Attempt("T", "snap", CREATED, w, families, B, null, false, false, false))
        .verdict();
  }

  @Test
  void theNewestOfSeveralLoadsIsNamed() {
    LoadRecord older = record(B, State.VERIFIED, "2026-12-01T09:00:00Z");
    LoadRecord newer = record(A, State.NOT_VERIFIED, "2026-12-01T11:00:00Z");
    Decision d = RepeatedLoad.decide(List.of(newer, older), fresh(B));
    assertEquals(newer, d.earlier().orElseThrow());
    assertTrue(d.message().contains("loaded, not verified"), d.message());
  }

  @Test
  void recordingARunReplacesItsOwnRecordAndThoseOfTheSameCellsAndDropsARetakenSnapshots() {
    LoadRecord loading = record(A, State.LOADING, "2026-12-01T10:00:00Z");
    LoadRecord done =
        loading.withState(State.VERIFIED, java.time.Instant.parse("2026-12-01T10:09:00Z"));
    assertEquals(List.of(done), LoadRecord.merged(List.of(loading), done));

    LoadRecord again = record(B, State.LOADING, "2026-12-02T00:00:00Z");
    assertEquals(List.of(again), LoadRecord.merged(List.of(done), again), "the same cells again");

    LoadRecord otherDay =
        new LoadRecord(
            "snap",
            CREATED,
            B,
            "w2",
            "2026-12-02T00:00:00Z",
            State.VERIFIED,
            5,
            0,
            100,
            List.of(),
            null);
    assertEquals(List.of(done, otherDay), LoadRecord.merged(List.of(done), otherDay));

    LoadRecord retaken =
        new LoadRecord(
            "snap",
            CREATED + 1,
            B,
            "w3",
            "2026-12-03T00:00:00Z",
            State.LOADING,
            5,
            0,
            Long.MAX_VALUE,
            List.of(),
            null);
    assertEquals(List.of(retaken), LoadRecord.merged(List.of(done, otherDay), retaken));
  }
}

package dev.rekey.jobs.backfill.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeWindow;
import dev.rekey.jobs.backfill.load.LoadRecord;
import dev.rekey.jobs.backfill.plan.RepeatedLoad.Attempt;
import dev.rekey.jobs.backfill.plan.RepeatedLoad.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Shards of the source regions, and the repeat check telling shards apart. */
@Tag("unit")
class ShardTest {
  private static final long CREATED = 1_764_374_400_000L;

  @Test
  void parsesIOfNAndRefusesTheRest() {
    assertEquals(new Shard(2, 4), Shard.parse("2/4"));
    assertEquals("shard-2-of-4", Shard.parse(" 2 / 4 ").folderName());
    for (String bad : List.of("0/4", "5/4", "2", "a/b", "2/4/1", "1/0")) {
      RekeyException e = assertThrows(RekeyException.class, () -> Shard.parse(bad), bad);
      assertEquals(2, e.exitCode(), bad);
      assertTrue(e.getMessage().contains("--shard"), e.getMessage());
    }
  }

  @Test
  void shardsAreContiguousNonEmptyAndCoverEveryRegionOnce() {
    List<Long> bytes = List.of(10L, 10L, 80L, 10L, 10L, 10L, 0L, 70L);
    for (int n = 1; n <= bytes.size(); n++) {
      List<Integer> all = new ArrayList<>();
      for (int i = 1; i <= n; i++) {
        List<Integer> r = new Shard(i, n).regions(bytes, "s");
        assertTrue(!r.isEmpty(), "shard " + i + "/" + n);
        all.addAll(r);
      }
      List<Integer> expected = new ArrayList<>();
      for (int i = 0; i < bytes.size(); i++) {
        expected.add(i);
      }
      assertEquals(expected, all, "n=" + n);
    }
  }

  @Test
  void shardsAreAboutEqualInBytes() {
    List<Long> bytes = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      bytes.add(100L);
    }
    assertEquals(List.of(0, 1, 2, 3), new Shard(1, 3).regions(bytes, "s"));
    assertEquals(List.of(4, 5, 6, 7), new Shard(2, 3).regions(bytes, "s"));
    assertEquals(List.of(8, 9, 10, 11), new Shard(3, 3).regions(bytes, "s"));
    // one big region is a shard alone
    assertEquals(List.of(0), new Shard(1, 2).regions(List.of(1000L, 1L, 1L), "s"));
  }

  @Test
  void moreShardsThanRegionsIsAUsageError() {
    RekeyException e =
        assertThrows(RekeyException.class, () -> new Shard(1, 4).regions(List.of(1L, 2L), "snap"));
    assertEquals(2, e.exitCode());
    assertTrue(
        e.getMessage().contains("snapshot snap: it has 2 region(s), fewer than 4 shards"),
        e.getMessage());
  }

  private static LoadRecord loaded(String shard) {
    return new LoadRecord(
        "snap",
        CREATED,
        "file:/s/" + shard,
        "w",
        "2026-12-01T10:05:00Z",
        LoadRecord.State.VERIFIED,
        100,
        0,
        Long.MAX_VALUE,
        List.of(),
        "h 1 t",
        shard);
  }

  private static Attempt attempt(String shard) {
    return new Attempt(
        "T",
        "snap",
        CREATED,
        TimeWindow.ALL,
        List.of(),
        "file:/s/other",
        null,
        false,
        false,
        false,
        shard);
  }

  @Test
  void otherShardsOfTheSameCutGoAShardLoadedTwiceIsRefused() {
    List<LoadRecord> records = List.of(loaded("1/3"), loaded("2/3"));
    assertEquals(Verdict.GO, RepeatedLoad.decide(records, attempt("3/3")).verdict());
    RepeatedLoad.Decision again = RepeatedLoad.decide(records, attempt("2/3"));
    assertEquals(Verdict.REFUSE, again.verdict());
    assertTrue(again.message().contains("shard 2/3 of snapshot snap"), again.message());
    // a whole load after shards, shards after a whole load, and a shard of another cut: refused
    assertEquals(Verdict.REFUSE, RepeatedLoad.decide(records, attempt(null)).verdict());
    assertEquals(
        Verdict.REFUSE, RepeatedLoad.decide(List.of(loaded(null)), attempt("1/3")).verdict());
    assertEquals(Verdict.REFUSE, RepeatedLoad.decide(records, attempt("1/2")).verdict());
  }

  @Test
  void recordsOfEachShardAreKeptSideBySide() {
    List<LoadRecord> merged =
        LoadRecord.merged(LoadRecord.merged(List.of(), loaded("1/3")), loaded("2/3"));
    assertEquals(2, merged.size());
    assertEquals(
        1,
        LoadRecord.merged(merged, loaded("2/3")).stream()
            .filter(r -> "2/3".equals(r.shard()))
            .count());
  }
}

package dev.rekey.jobs.backfill.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.jobs.backfill.Regions;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.SplitPoints;
import dev.rekey.testing.Layouts;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class WritePathTest {

  private static KeyLayout parse(String yaml) {
    return KeyLayout.parse(yaml, "test");
  }

  private static final RegionBoundaries SIXTEEN_SALTS = Regions.splitAt(SplitPoints.salt(16));

  @Test
  void addingASaltToTheSameFieldsKeepsTheSourceOrder() {
    WritePath p =
        WritePath.choose(
            Layouts.shipped("telemetry-v1"),
            Layouts.shipped("telemetry-v2"),
            SIXTEEN_SALTS,
            1,
            4,
            32);
    assertTrue(p.inSourceOrder(), p.describe());
    assertEquals(2, p.splitsPerSourceRegion(), "one source region cut for the 2 cores");
    assertEquals(2, p.writeTasks(), "one write task per core (4 read tasks wanted = two per core)");
    assertEquals(
        "written in source order, no shuffle: target layout telemetry-v2 adds a salt byte to the fields of "
            + "telemetry-v1 in their order; 2 write task(s) x 1 bucket(s) per region = at most 2 HFiles per region and "
            + "family (limit 32)",
        p.describe());
    WritePath eight =
        WritePath.choose(
            Layouts.shipped("telemetry-v1"),
            Layouts.shipped("telemetry-v2"),
            SIXTEEN_SALTS,
            8,
            4,
            32);
    assertEquals(1, eight.splitsPerSourceRegion());
    assertEquals(2, eight.writeTasks(), "8 source regions read in 2 runs of 4");
    assertTrue(
        eight.describe().contains("2 write task(s) reading the source's 8 regions in runs"),
        eight.describe());
  }

  @Test
  void aHashPrefixOrOtherFieldsMustSort() {
    assertEquals(
        "target layout events-v2 has a hash prefix: each region holds many prefix values, whose rows "
            + "interleave in source order",
        WritePath.orderMismatch(Layouts.shipped("telemetry-v1"), Layouts.shipped("events-v2"))
            .orElseThrow());
    KeyLayout reordered =
        parse(
            "name: id-first\nprefix:\n  kind: salt\n  buckets: 16\n  hash: java_arrays_hashcode\n"
                + "fields:\n  - name: deviceId\n    type: bytes\n    length: 16\n  - name: ts\n    type: long\n    signed: false\n");
    assertTrue(
        WritePath.orderMismatch(Layouts.shipped("telemetry-v1"), reordered)
            .orElseThrow()
            .startsWith("field 1 differs"));
    assertTrue(
        WritePath.orderMismatch(Layouts.shipped("telemetry-v2"), Layouts.shipped("telemetry-v2"))
            .orElseThrow()
            .contains("source layout telemetry-v2 has a salt prefix"));
  }

  @Test
  void regionsSpanningManyBucketsCutTheReadTasksOrForceTheSort() {
    // 32 buckets in 16 regions split at [1]..[15]: the last region holds buckets 15..31
    KeyLayout salt32 =
        parse(
            "name: salt32\ntime: ts\nprefix:\n  kind: salt\n  buckets: 32\n  hash: java_arrays_hashcode\n"
                + "fields:\n  - name: ts\n    type: long\n    signed: false\n  - name: deviceId\n    type: bytes\n    length: 16\n");
    assertEquals(17, WritePath.maxBucketsPerRegion(SIXTEEN_SALTS, 32));
    assertEquals(1, WritePath.maxBucketsPerRegion(SIXTEEN_SALTS, 16));
    WritePath one =
        WritePath.choose(Layouts.shipped("telemetry-v1"), salt32, SIXTEEN_SALTS, 1, 4, 32);
    assertTrue(one.inSourceOrder());
    assertEquals(
        1,
        one.splitsPerSourceRegion(),
        "17 files per task into the last region: one task fits in 32");
    WritePath two =
        WritePath.choose(Layouts.shipped("telemetry-v1"), salt32, SIXTEEN_SALTS, 2, 4, 32);
    assertTrue(two.inSourceOrder(), "one task on 2 cores reads both source regions");
    assertEquals(1, two.writeTasks());
    WritePath fourCores =
        WritePath.choose(Layouts.shipped("telemetry-v1"), salt32, SIXTEEN_SALTS, 2, 8, 32);
    assertFalse(fourCores.inSourceOrder(), "one task of the 4 the cores want: sort instead");
    assertTrue(
        fourCores
            .reason()
            .startsWith("4 write tasks, each writing up to 17 file(s) per target region"),
        fourCores.reason());
  }

  @Test
  void aFanOutReadsWithTheSortedTargetsTasksWithinTheInOrderFileLimit() {
    // a small source: the in-order target writes with one task; the sorted target's own run
    // reads with two, and its rows are re-keyed and shuffled in the same tasks
    assertEquals(2, WritePath.fanOutTasks(List.of(1), List.of(32), 2, 8, 2));
    // in-order targets alone keep their write tasks
    assertEquals(1, WritePath.fanOutTasks(List.of(1), List.of(32), 0, 8, 2));
    assertEquals(1, WritePath.fanOutTasks(List.of(3, 1), List.of(32, 32), 0, 8, 2));
    // never past the read's splits, nor past what the file limit allows an in-order target
    assertEquals(1, WritePath.fanOutTasks(List.of(1), List.of(32), 4, 1, 2));
    assertEquals(2, WritePath.fanOutTasks(List.of(1), List.of(2), 4, 8, 2));
    // sorted targets alone: the read's splits
    assertEquals(8, WritePath.fanOutTasks(List.of(), List.of(), 4, 8, 2));
  }

  @Test
  void aFanOutRaisedForSortedTargetsReadsInWholeWavesOfTheCores() {
    // a GZ source of 6M rows: 3 read tasks wanted by size, 2 in-order write tasks, parallelism 4 —
    // 3 tasks would take two task lengths, 4 take two half ones
    assertEquals(4, WritePath.fanOutTasks(List.of(2), List.of(32), 3, 8, 4));
    // the in-order tasks fill the cores already: not raised (each task more is a file per region)
    assertEquals(2, WritePath.fanOutTasks(List.of(2), List.of(32), 3, 8, 2));
    assertEquals(4, WritePath.fanOutTasks(List.of(4), List.of(32), 8, 8, 4));
    // raised only as far as the cores, then to whole waves
    assertEquals(3, WritePath.fanOutTasks(List.of(2), List.of(32), 5, 8, 3));
    assertEquals(4, WritePath.fanOutTasks(List.of(1), List.of(32), 8, 8, 4));
    // not past the splits nor the in-order file limit: then as raised
    assertEquals(3, WritePath.fanOutTasks(List.of(2), List.of(32), 3, 3, 4));
    assertEquals(3, WritePath.fanOutTasks(List.of(2), List.of(3), 3, 8, 4));
    // not raised, not moved: in-order targets alone keep their own tasks, as their single runs do,
    // and so does a small source whose sorted target wants no more tasks than the in-order one
    assertEquals(3, WritePath.fanOutTasks(List.of(3), List.of(32), 0, 8, 2));
    assertEquals(1, WritePath.fanOutTasks(List.of(1), List.of(32), 1, 8, 2));
    // sorted targets alone: the read's splits, as many as there are
    assertEquals(5, WritePath.fanOutTasks(List.of(), List.of(), 4, 5, 2));
  }

  @Test
  void wholeWavesRaiseToAMultipleOfTheCoresWithinTheUpperBound() {
    assertEquals(4, WritePath.wholeWaves(3, 8, 2));
    assertEquals(4, WritePath.wholeWaves(4, 8, 2));
    assertEquals(3, WritePath.wholeWaves(3, 3, 2));
    assertEquals(1, WritePath.wholeWaves(1, 1, 4));
    assertEquals(4, WritePath.wholeWaves(1, 8, 4));
    assertEquals(5, WritePath.wholeWaves(5, 5, 0));
  }
}

package dev.rekey.jobs.backfill.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.Versions;
import dev.rekey.jobs.backfill.Regions;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.SplitPoints;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@link BackfillPlan#of}: the plan from plain inputs, without a cluster. */
@Tag("unit")
class BackfillPlanOfTest {
  private static final long NOW = 1_800_000_000_000L;

  private static KeyLayout layout(String name) {
    return KeyLayout.load(
        Path.of(System.getProperty("rekey.home", "..")).resolve("conf/layouts/" + name + ".yaml"));
  }

  /** n source regions of 1,000 bytes each, split on the first key byte. */
  private static List<BackfillPlan.SourceRegion> source(int n) {
    List<BackfillPlan.SourceRegion> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] start = i == 0 ? new byte[0] : new byte[] {(byte) (i * 256 / n)};
      byte[] end = i == n - 1 ? new byte[0] : new byte[] {(byte) ((i + 1) * 256 / n)};
      out.add(new BackfillPlan.SourceRegion(start, end, 1_000));
    }
    return out;
  }

  /** Entity first, behind a 2-byte hash prefix of the device id: must sort. */
  private static final KeyLayout DEVICE_FIRST =
      KeyLayout.parse(
          "name: device-first\ntime: ts\nprefix:\n  kind: hash_prefix\n  hash: md5\n  bytes: 2\n"
              + "  fields:\n    - deviceId\nfields:\n  - name: deviceId\n    type: bytes\n"
              + "    length: 16\n  - name: ts\n    type: long\n    signed: false\n",
          "device-first");

  /** telemetry-v1 from one region into {@link #DEVICE_FIRST}'s 8 regions: the sorted path. */
  private static BackfillPlan.Inputs deviceFirst() {
    return inputs(
        layout("telemetry-v1"),
        DEVICE_FIRST,
        Regions.splitAt(SplitPoints.salt(8)),
        1,
        Versions.ALL,
        false,
        D);
  }

  /** telemetry-v1 into telemetry-v2's 16 salt regions, in source order where it can be. */
  private static BackfillPlan.Inputs salting(
      int sourceRegions, Versions versions, BackfillPlan.TargetFamily... families) {
    return inputs(
        "telemetry-v1",
        "telemetry-v2",
        Regions.splitAt(SplitPoints.salt(16)),
        sourceRegions,
        versions,
        false,
        families);
  }

  private static BackfillPlan.Inputs inputs(
      String from,
      String to,
      RegionBoundaries target,
      int sourceRegions,
      Versions versions,
      boolean sortAlways,
      BackfillPlan.TargetFamily... families) {
    return inputs(layout(from), layout(to), target, sourceRegions, versions, sortAlways, families);
  }

  private static BackfillPlan.Inputs inputs(
      KeyLayout from,
      KeyLayout to,
      RegionBoundaries target,
      int sourceRegions,
      Versions versions,
      boolean sortAlways,
      BackfillPlan.TargetFamily... families) {
    return new BackfillPlan.Inputs(
        from,
        to,
        target,
        source(sourceRegions),
        List.of(families),
        List.of(),
        versions,
        2,
        sortAlways,
        4,
        32,
        10L << 30,
        NOW,
        BackfillPlan.Tiers.NONE);
  }

  private static final BackfillPlan.TargetFamily D =
      new BackfillPlan.TargetFamily("d", 3, BackfillPlan.TargetFamily.FOREVER);

  @Test
  void theSaltingMigrationStreamsInSourceOrderAndEverySourceRegionFeedsEveryTargetRegion() {
    BackfillPlan p = BackfillPlan.of(salting(2, Versions.ALL, D));
    assertTrue(p.path().inSourceOrder(), p.path().describe());
    assertEquals(1, p.splitsPerSourceRegion(), "2 write tasks (one per core) over 2 regions");
    assertEquals(2, p.path().writeTasks());
    assertEquals(0, p.minReadTasks());
    assertEquals(16, p.regions().size());
    BackfillPlan.TargetRegion r5 = p.regions().get(5);
    assertEquals(List.of(0, 1), r5.fedBy());
    // 2 write tasks x 1 bucket x 1 family
    assertEquals(2, r5.maxFiles());
    assertEquals(2_000 / 16, r5.estimatedBytes(), 1, "each source region spread over 16");
    assertEquals(32, p.maxFiles());
    List<String> lines = p.lines(Versions.ALL);
    assertTrue(lines.get(0).startsWith("Plan: written in source order, no shuffle"), lines.get(0));
    assertTrue(
        lines.stream().anyMatch(l -> l.matches("  5 +05 +all 2 +124 +2")),
        String.join("\n", lines));
  }

  @Test
  void aHashPrefixSortsWithKSubPartitionsAndAtLeastTwoReadTasksPerCore() {
    BackfillPlan p = BackfillPlan.of(deviceFirst());
    assertFalse(p.path().inSourceOrder());
    assertTrue(p.path().reason().contains("hash prefix"), p.path().reason());
    assertEquals(2, p.splitsPerSourceRegion(), "--splits-per-region");
    assertEquals(4, p.minReadTasks());
    assertEquals(2, p.regions().get(3).maxFiles(), "k=2 writers x 1 family");
  }

  @Test
  void identicalKeysFeedOnlyTheOverlappingTargetRegions() {
    // telemetry-v1 to itself: target keys are the source keys, so a source region feeds only the
    // target regions its key range overlaps
    RegionBoundaries target = Regions.splitAt(List.of(new byte[] {0x40}, new byte[] {(byte) 0x80}));
    BackfillPlan p =
        BackfillPlan.of(inputs("telemetry-v1", "telemetry-v1", target, 4, Versions.ALL, true, D));
    assertEquals("--write-path sort", p.path().reason());
    assertEquals(List.of(0), p.regions().get(0).fedBy());
    assertEquals(List.of(1), p.regions().get(1).fedBy());
    assertEquals(List.of(2, 3), p.regions().get(2).fedBy());
    assertEquals(2_000, p.regions().get(2).estimatedBytes());
    assertEquals("2-4", BackfillPlan.fedBy(List.of(2, 3, 4), 8));
    assertEquals("all 4", BackfillPlan.fedBy(List.of(0, 1, 2, 3), 4));
    assertEquals("none", BackfillPlan.fedBy(List.of(), 4));
  }

  @Test
  void versionsAreCappedPerFamilyAndTtlsGiveACutOff() {
    BackfillPlan.TargetFamily one = new BackfillPlan.TargetFamily("a", 1, 3_600);
    BackfillPlan.TargetFamily five =
        new BackfillPlan.TargetFamily("b", 5, BackfillPlan.TargetFamily.FOREVER);
    BackfillPlan p = BackfillPlan.of(salting(1, new Versions(3), one, five));
    assertEquals(1, p.families().get(0).copies());
    assertEquals(NOW - 3_600_000L, p.families().get(0).expiresBefore());
    assertEquals(3, p.families().get(1).copies());
    assertEquals(Long.MIN_VALUE, p.families().get(1).expiresBefore());
    assertEquals(3, p.readVersions(), "read what was asked, so the cut versions are counted");
    assertEquals(Integer.MAX_VALUE, BackfillPlan.of(salting(1, Versions.ALL, one)).readVersions());
    List<String> lines = p.lines(new Versions(3));
    assertTrue(
        lines.contains(
            "  family a: copies the 1 newest version(s) of each column (keeps VERSIONS=1; older"
                + " ones are counted, not written); TTL 3600 s: a cell older than that fails the"
                + " write"),
        String.join("\n", lines));
    assertTrue(
        lines.contains("  family b: copies 3 version(s) of each column (keeps VERSIONS=5); no TTL"),
        String.join("\n", lines));
    // the retention the write applies is the plan's
    Retention r = p.retention();
    assertEquals(3, r.readVersions());
    long[] dropped = new long[2];
    org.apache.hadoop.hbase.Cell[] cells = {
      new org.apache.hadoop.hbase.KeyValue(
          Bytes.toBytes("r"), Bytes.toBytes("a"), Bytes.toBytes("q"), NOW, Bytes.toBytes(1)),
      new org.apache.hadoop.hbase.KeyValue(
          Bytes.toBytes("r"), Bytes.toBytes("a"), Bytes.toBytes("q"), 5L, Bytes.toBytes(0))
    };
    assertEquals(1, r.trim(cells, dropped).length);
    assertEquals(1, dropped[0], "the older version of a VERSIONS=1 family");
    assertEquals(1, dropped[1], "the cell stamped 5 is past family a's TTL");
  }

  private static BackfillPlan.Inputs withTiers(BackfillPlan.Inputs in, BackfillPlan.Tiers t) {
    return withTiers(in, t, in.wantedReadTasks());
  }

  private static BackfillPlan.Inputs withTiers(
      BackfillPlan.Inputs in, BackfillPlan.Tiers t, int wantedReadTasks) {
    return new BackfillPlan.Inputs(
        in.sourceLayout(),
        in.targetLayout(),
        in.target(),
        in.source(),
        in.targetFamilies(),
        in.familiesAsked(),
        in.versions(),
        in.splitsPerRegion(),
        in.sortAlways(),
        wantedReadTasks,
        in.maxFilesPerRegion(),
        in.maxFileSize(),
        in.nowMillis(),
        t);
  }

  /** 30 days of cells, tiers of a day asked, under a limit of {@code limit} files per region. */
  private static BackfillPlan.Tiers thirtyDaily(int limit) {
    long nov1 = java.time.Instant.parse("2026-11-01T00:00:00Z").toEpochMilli();
    return new BackfillPlan.Tiers(
        java.time.Duration.ofDays(1),
        "--time-tiers P1D",
        nov1,
        nov1 + 30 * 86_400_000L - 1,
        limit,
        "hbase.hstore.blockingStoreFiles=" + limit + " of family d");
  }

  @Test
  void timeTiersOnTheSortedPathMultiplyItsSubPartitionsAndCoarsenToFit() {
    BackfillPlan.Inputs base = deviceFirst();
    // 2 sub-partitions per region: 30 daily tiers would make 60, over the bulk-load limit (32),
    // the lower one here: two-day tiers, 15 x 2 = 30
    BackfillPlan coarser = BackfillPlan.of(withTiers(base, thirtyDaily(100)));
    assertEquals(15, coarser.tiers().count());
    assertEquals(2 * 86_400_000L, coarser.tiers().widthMillis());
    assertEquals(30, coarser.regions().get(0).maxFiles(), "2 sub-partitions x 15 tiers");
    assertTrue(
        coarser.tiers().reason().contains(WritePath.MAX_FILES_PER_REGION_KEY + "=32"),
        coarser.tiers().reason());
    List<String> lines = coarser.lines(Versions.ALL);
    assertTrue(
        lines.stream().anyMatch(l -> l.startsWith("  time tiers: 15 time tiers of P2D")),
        String.join("\n", lines));
    // a family's write-blocking count below it: 16 -> 8 tiers at most, of 4 or more days
    BackfillPlan blocking = BackfillPlan.of(withTiers(base, thirtyDaily(16)));
    assertTrue(blocking.tiers().count() * 2 <= 16, blocking.tiers().reason());
    assertTrue(
        blocking.tiers().reason().contains("blockingStoreFiles=16"), blocking.tiers().reason());
  }

  @Test
  void timeTiersLeaveTheInOrderPathWhenItsTasksWouldPassTheLimit() {
    BackfillPlan.Inputs base = salting(2, Versions.ALL, D);
    // two cores: one write task is half of them, and 30 daily tiers x 1 file fit
    BackfillPlan two = BackfillPlan.of(withTiers(base, thirtyDaily(60)));
    assertTrue(two.path().inSourceOrder(), two.path().describe());
    assertEquals(1, two.path().writeTasks());
    assertEquals(30, two.tiers().count());
    assertEquals(30, two.regions().get(5).maxFiles());
    // sixteen cores: one task would idle most of them, so the sorted path, 2 files per tier
    BackfillPlan many = BackfillPlan.of(withTiers(base, thirtyDaily(60), 32));
    assertFalse(many.path().inSourceOrder(), many.path().describe());
    assertTrue(
        many.path().reason().contains("asks for 30 time tiers, which leave 1 HFile(s)"),
        many.path().reason());
    assertEquals(15, many.tiers().count());
    // without tiers the same cores write in source order
    assertTrue(
        BackfillPlan.of(withTiers(base, BackfillPlan.Tiers.NONE, 32)).path().inSourceOrder());
  }
}

package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.jobs.common.Versions;
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

  private static RegionBoundaries regions(List<byte[]> splitPoints) {
    List<byte[]> starts = new ArrayList<>();
    List<String> names = new ArrayList<>();
    starts.add(new byte[0]);
    starts.addAll(splitPoints);
    for (int i = 0; i < starts.size(); i++) {
      names.add("r" + i);
    }
    return new RegionBoundaries(starts, names);
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
        NOW);
  }

  private static final BackfillPlan.TargetFamily D =
      new BackfillPlan.TargetFamily("d", 3, BackfillPlan.TargetFamily.FOREVER);

  @Test
  void theSaltingMigrationStreamsInSourceOrderAndEverySourceRegionFeedsEveryTargetRegion() {
    BackfillPlan p =
        BackfillPlan.of(
            inputs(
                "telemetry-v1",
                "telemetry-v2",
                regions(SplitPoints.salt(16)),
                2,
                Versions.ALL,
                false,
                D));
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
    BackfillPlan p =
        BackfillPlan.of(
            inputs(
                layout("telemetry-v1"),
                DEVICE_FIRST,
                regions(SplitPoints.salt(8)),
                1,
                Versions.ALL,
                false,
                D));
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
    RegionBoundaries target = regions(List.of(new byte[] {0x40}, new byte[] {(byte) 0x80}));
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
    BackfillPlan p =
        BackfillPlan.of(
            inputs(
                "telemetry-v1",
                "telemetry-v2",
                regions(SplitPoints.salt(16)),
                1,
                new Versions(3),
                false,
                one,
                five));
    assertEquals(1, p.families().get(0).copies());
    assertEquals(NOW - 3_600_000L, p.families().get(0).expiresBefore());
    assertEquals(3, p.families().get(1).copies());
    assertEquals(Long.MIN_VALUE, p.families().get(1).expiresBefore());
    assertEquals(3, p.readVersions(), "read what was asked, so the cut versions are counted");
    assertEquals(
        Integer.MAX_VALUE,
        BackfillPlan.of(
                inputs(
                    "telemetry-v1",
                    "telemetry-v2",
                    regions(SplitPoints.salt(16)),
                    1,
                    Versions.ALL,
                    false,
                    one))
            .readVersions());
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
}

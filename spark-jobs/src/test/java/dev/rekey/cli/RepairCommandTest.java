package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.repair.RepairOptions;
import dev.rekey.read.Source;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** rekey repair's command line to validated options, in-process (no Spark, no HBase). */
@Tag("unit")
class RepairCommandTest {
  static final String[] SIDES = {
    "--old-snapshot", "v1_snap", "--old-layout", "telemetry-v1",
    "--new-table", "telemetry_v2", "--new-layout", "telemetry-v2"
  };

  /** {@code args}, then the day of 2026-11-29 in hourly buckets. */
  static String[] day(String... args) {
    String[] hours = {"--from", "2026-11-29", "--to", "2026-11-30", "--bucket", "1h"};
    String[] all = java.util.Arrays.copyOf(args, args.length + hours.length);
    System.arraycopy(hours, 0, all, args.length, hours.length);
    return all;
  }

  static RepairCommand.Parsed parsed(String... args) {
    RepairCommand c = new RepairCommand();
    new CommandLine(c).parseArgs(args);
    return c.options();
  }

  static RepairOptions options(String... args) {
    String[] all = new String[SIDES.length + args.length];
    System.arraycopy(SIDES, 0, all, 0, SIDES.length);
    System.arraycopy(args, 0, all, SIDES.length, args.length);
    return parsed(all).repair();
  }

  static RekeyException usage(String... args) {
    RekeyException e = assertThrows(RekeyException.class, () -> parsed(args));
    assertEquals(ExitCodes.USAGE, e.exitCode(), e.getMessage());
    return e;
  }

  @Test
  void everyOptionReachesTheJob() {
    RepairOptions o =
        options(
            "--from",
            "2026-11-29",
            "--to",
            "2026-11-30",
            "--bucket",
            "1h",
            "--delete-extra",
            "--compact-if-masked",
            "--compact-wait",
            "60",
            "--max-put-cells",
            "500",
            "--dry-run",
            "m.jsonl",
            "--resume",
            "--out",
            "/tmp/r");
    assertEquals(Source.snapshot("v1_snap"), o.old().source());
    assertEquals(Source.table("telemetry_v2"), o.neu().source());
    assertEquals(24, o.buckets().count());
    assertNull(o.onlyBuckets(), "every bucket is compared first");
    assertTrue(o.deleteExtra() && o.compactIfMasked() && o.resume());
    assertEquals(Duration.ofSeconds(60), o.compactWait());
    assertEquals(500, o.maxPutCells());
    assertEquals(Path.of("m.jsonl"), o.dryRun());
    assertEquals(Path.of("/tmp/r"), o.out());
  }

  @Test
  void aReconcileReportGivesTheBucketsAndTheOutDir(@TempDir Path dir) throws Exception {
    Files.writeString(
        dir.resolve("reconcile.json"),
        """
        {"from":"2026-11-29T00:00:00Z","to":"2026-11-29T06:00:00Z","bucketMillis":3600000,
         "time":"key:ts","buckets":[{"index":0,"status":"ok"},{"index":2,"status":"MISMATCH"},
         {"index":5,"status":"MISMATCH"}]}
        """);
    RepairOptions o = options("--from-reconcile", dir.toString());
    assertEquals(Set.of(2, 5), o.onlyBuckets());
    assertEquals(6, o.buckets().count());
    assertEquals(dir.toAbsolutePath(), o.out(), "repair.json goes beside reconcile.json");
  }

  @Test
  void aLiveOldTableIsReadThroughASnapshotOrRefused() {
    String[] live =
        day(
            "--old-table",
            "telemetry_v1",
            "--old-layout",
            "telemetry-v1",
            "--new-table",
            "telemetry_v2",
            "--new-layout",
            "telemetry-v2");
    assertEquals(
        "Cannot repair from the live table telemetry_v1: writes in flight would look like damage."
            + " Add --via-snapshot (rekey snapshots it for the run and deletes the snapshot after),"
            + " or give --old-snapshot",
        usage(live).getMessage());
    String[] via = java.util.Arrays.copyOf(live, live.length + 1);
    via[live.length] = "--via-snapshot";
    assertEquals(Source.tableViaSnapshot("telemetry_v1"), parsed(via).repair().old().source());
  }

  @Test
  void whatToRepairIsAReportOrARangeNotBothNorNeither() {
    assertTrue(
        assertThrows(RekeyException.class, () -> options())
            .getMessage()
            .endsWith("(every bucket compared first), not neither"));
    assertTrue(
        assertThrows(RekeyException.class, () -> options(day("--from-reconcile", "r.json")))
            .getMessage()
            .endsWith("not both"));
    assertTrue(
        assertThrows(RekeyException.class, () -> options("--from-reconcile", "/nonexistent"))
            .getMessage()
            .startsWith("Cannot repair from /nonexistent: no such reconcile report"));
  }

  @Test
  void applyTakesTheFileAlone() {
    assertTrue(
        usage("--apply", "/nonexistent/m.jsonl")
            .getMessage()
            .startsWith("Cannot apply /nonexistent/m.jsonl: "));
    assertTrue(
        usage("--apply", "m.jsonl", "--new-table", "t")
            .getMessage()
            .startsWith("--apply replays a mutation file with the sides and buckets it names"));
  }

  @Test
  void severalNewTablesAreRepeatedTargetsEachWithItsOwnReportDirAndFile() {
    RepairOptions o =
        parsed(
                day(
                    "--old-snapshot",
                    "v1_snap",
                    "--old-layout",
                    "telemetry-v1",
                    "--target",
                    "telemetry_v2=telemetry-v2",
                    "--target",
                    "by_device=telemetry-by-device",
                    "--dry-run",
                    "/tmp/m.jsonl",
                    "--staging",
                    "/tmp/st",
                    "--out",
                    "/tmp/r"))
            .repair();
    assertTrue(o.severalTargets());
    assertEquals(
        java.util.List.of("telemetry_v2", "by_device"),
        o.news().stream().map(n -> n.source().name()).toList());
    RepairOptions second = o.forTarget(o.news().get(1), o.old());
    assertEquals("telemetry-by-device", second.neu().layout().name());
    assertEquals(Path.of("/tmp/r/by_device"), second.out());
    assertEquals(Path.of("/tmp/m.by_device.jsonl"), second.dryRun());
    assertEquals("/tmp/st/repair-by_device", second.staging());
    assertTrue(
        usageFromSnapshot(
                "--target",
                "a=telemetry-v2",
                "--target",
                "b=telemetry-v2",
                "--from-reconcile",
                "r.json")
            .getMessage()
            .startsWith("--from-reconcile names the buckets of one new table"));
    assertTrue(
        usageFromSnapshot("--target", "t2")
            .getMessage()
            .startsWith("Invalid --target 't2': expected TABLE=LAYOUT"));
    assertTrue(
        usageFromSnapshot(
                day(
                    "--target",
                    "a=telemetry-v2",
                    "--new-table",
                    "t",
                    "--new-layout",
                    "telemetry-v2"))
            .getMessage()
            .contains("not both"));
  }

  /** A usage error of repair from the old snapshot v1_snap (telemetry-v1) with these options. */
  private static RekeyException usageFromSnapshot(String... more) {
    java.util.List<String> args =
        new java.util.ArrayList<>(
            java.util.List.of("--old-snapshot", "v1_snap", "--old-layout", "telemetry-v1"));
    args.addAll(java.util.List.of(more));
    return usage(args.toArray(new String[0]));
  }
}

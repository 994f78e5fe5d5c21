package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.jobs.reconcile.ReconcileOptions;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * reconcile --target TABLE=LAYOUT (repeatable, as backfill's): the old side against each new table,
 * a report directory each; the single new side's options unchanged (no Spark, no HBase).
 */
@Tag("unit")
class ReconcileTargetsTest {
  private static final String[] OLD = {
    "--old-table", "telemetry_v1", "--old-layout", "telemetry-v1", "--bucket", "1h", "--out", "rep"
  };

  private static List<ReconcileOptions> options(String... args) {
    String[] all = new String[OLD.length + args.length];
    System.arraycopy(OLD, 0, all, 0, OLD.length);
    System.arraycopy(args, 0, all, OLD.length, args.length);
    ReconcileCommand c = new ReconcileCommand();
    new CommandLine(c).parseArgs(all);
    return c.options();
  }

  @Test
  void eachTargetIsComparedWithTheOldSideIntoItsOwnReport() {
    List<ReconcileOptions> all =
        options(
            "--target",
            "telemetry_v2=telemetry-v2",
            "--target",
            "telemetry_by_device=telemetry-by-device");
    assertEquals(2, all.size());
    assertEquals("telemetry_v2", all.get(0).neu().source().name());
    assertEquals("telemetry-v2", all.get(0).neu().layout().name());
    assertEquals("telemetry_by_device", all.get(1).neu().source().name());
    assertEquals("telemetry-by-device", all.get(1).neu().layout().name());
    assertEquals("rep/telemetry_v2", all.get(0).out());
    assertEquals("rep/telemetry_by_device", all.get(1).out());
    for (ReconcileOptions o : all) {
      assertEquals("telemetry_v1", o.old().source().name());
    }
  }

  @Test
  void oneNewSideKeepsItsReportWhereItWas() {
    List<ReconcileOptions> one =
        options("--new-table", "telemetry_v2", "--new-layout", "telemetry-v2");
    assertEquals(1, one.size());
    assertEquals("rep", one.get(0).out());
  }

  @Test
  void anOutOnAnObjectStoreKeepsItsUriAndEachTargetsFolderUnderIt() {
    List<ReconcileOptions> all =
        parsed(
            "--old-table",
            "telemetry_v1",
            "--old-layout",
            "telemetry-v1",
            "--bucket",
            "1h",
            "--target",
            "telemetry_v2=telemetry-v2",
            "--target",
            "ns:by_device=telemetry-by-device",
            "--out",
            "s3a://rekey/nightly/rep");
    assertEquals("s3a://rekey/nightly/rep/telemetry_v2", all.get(0).out());
    assertEquals("s3a://rekey/nightly/rep/ns_by_device", all.get(1).out());
    List<ReconcileOptions> one =
        parsed(
            "--old-table",
            "telemetry_v1",
            "--old-layout",
            "telemetry-v1",
            "--bucket",
            "1h",
            "--new-table",
            "t2",
            "--new-layout",
            "telemetry-v2",
            "--out",
            "hdfs://nn:8020/r");
    assertEquals("hdfs://nn:8020/r", one.get(0).out());
  }

  private static List<ReconcileOptions> parsed(String... args) {
    ReconcileCommand c = new ReconcileCommand();
    new CommandLine(c).parseArgs(args);
    return c.options();
  }

  @Test
  void targetsAndANewSideTogetherOrNeitherAreRefused() {
    for (String[] bad :
        List.of(
            new String[] {"--target", "t2=telemetry-v2", "--new-layout", "telemetry-v2"},
            new String[] {"--target", "t2=telemetry-v2", "--new-table", "t3"},
            new String[] {"--new-table", "t3"},
            new String[] {},
            new String[] {"--target", "t2"})) {
      RekeyException e = assertThrows(RekeyException.class, () -> options(bad));
      assertEquals(ExitCodes.USAGE, e.exitCode(), e.getMessage());
      assertTrue(
          e.getMessage().startsWith("Cannot reconcile")
              || e.getMessage().startsWith("Invalid --target 't2'"),
          e.getMessage());
    }
  }
}

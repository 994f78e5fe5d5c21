package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rekey.jobs.reconcile.ReconcileOptions;
import dev.rekey.jobs.repair.RepairOptions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * --target in every command that takes several tables: a namespaced table's report folder is the
 * same in reconcile and repair ({@code ns:t} → {@code ns_t}), as backfill's staging subdir is.
 */
@Tag("unit")
class TargetOptionsTest {
  @Test
  void reconcileAndRepairPutANamespacedTablesReportInTheSameFolder() {
    ReconcileCommand reconcile = new ReconcileCommand();
    new CommandLine(reconcile)
        .parseArgs(
            "--old-snapshot",
            "v1_snap",
            "--old-layout",
            "telemetry-v1",
            "--bucket",
            "1h",
            "--out",
            "rep",
            "--target",
            "ns:v2=telemetry-v2",
            "--target",
            "by_device=telemetry-by-device");
    List<ReconcileOptions> compared = reconcile.options();
    assertEquals(Path.of("rep", "ns_v2"), compared.get(0).out());
    assertEquals(Path.of("rep", "by_device"), compared.get(1).out());

    RepairCommand repair = new RepairCommand();
    new CommandLine(repair)
        .parseArgs(
            "--old-snapshot",
            "v1_snap",
            "--old-layout",
            "telemetry-v1",
            "--from",
            "2026-11-29",
            "--to",
            "2026-11-30",
            "--bucket",
            "1h",
            "--out",
            "rep",
            "--target",
            "ns:v2=telemetry-v2",
            "--target",
            "by_device=telemetry-by-device");
    RepairOptions o = repair.options().repair();
    assertEquals(compared.get(0).out(), o.forTarget(o.news().get(0), o.old()).out());
    assertEquals("ns:v2", o.news().get(0).source().name());
  }

  @Test
  void oneTargetIsStillATargetWithItsOwnFolder() {
    ReconcileCommand reconcile = new ReconcileCommand();
    new CommandLine(reconcile)
        .parseArgs(
            "--old-table",
            "t1",
            "--old-layout",
            "telemetry-v1",
            "--bucket",
            "1h",
            "--out",
            "rep",
            "--target",
            "t2=telemetry-v2");
    assertEquals(Path.of("rep", "t2"), reconcile.options().get(0).out());
  }
}

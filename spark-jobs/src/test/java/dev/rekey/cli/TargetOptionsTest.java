package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.rekey.jobs.reconcile.ReconcileOptions;
import dev.rekey.jobs.repair.RepairOptions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * --target in every command that takes several tables: a namespaced table's report folder is the
 * same in reconcile and repair ({@code ns:t} → {@code ns_t}), as backfill's staging subdir is.
 */
@Tag("unit")
class TargetOptionsTest {
  private static final String TWO =
      "--target ns:v2=telemetry-v2 --target by_device=telemetry-by-device";

  /** The words of {@code line}, then {@code more}: a command line written as one string. */
  static String[] args(String line, String... more) {
    return Stream.concat(Stream.of(line.split(" ")), Stream.of(more)).toArray(String[]::new);
  }

  private static List<ReconcileOptions> reconcile(String line) {
    ReconcileCommand c = new ReconcileCommand();
    new CommandLine(c).parseArgs(args("--old-layout telemetry-v1 --bucket 1h --out rep " + line));
    return c.options();
  }

  @Test
  void reconcileAndRepairPutANamespacedTablesReportInTheSameFolder() {
    List<ReconcileOptions> compared = reconcile("--old-snapshot v1_snap " + TWO);
    assertEquals("rep/ns_v2", compared.get(0).out());
    assertEquals("rep/by_device", compared.get(1).out());
    RepairOptions o =
        RepairCommandTest.parsed(
                RepairCommandTest.day(
                    args("--old-snapshot v1_snap --old-layout telemetry-v1 --out rep " + TWO)))
            .repair();
    assertEquals(compared.get(0).out(), o.forTarget(o.news().get(0), o.old()).out().toString());
    assertEquals("ns:v2", o.news().get(0).source().name());
  }

  @Test
  void oneTargetIsStillATargetWithItsOwnFolder() {
    assertEquals("rep/t2", reconcile("--old-table t1 --target t2=telemetry-v2").get(0).out());
  }
}

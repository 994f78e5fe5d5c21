package dev.rekey.jobs.backfill;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.admin.createtable.FamilySpec;
import dev.rekey.admin.createtable.TableCreator;
import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.demo.TelemetryGenerator;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import dev.rekey.testing.TableContents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * One snapshot read feeding two targets: the salted time-first telemetry-v2 table (written in the
 * source's order) and the entity-first telemetry-by-device history table (sorted), each with its
 * own staging subdir, ledger, verification, load record and --resume.
 */
@Tag("e2e")
class BackfillTargetsIT {
  private static final KeyLayout V1 = Layouts.shipped("telemetry-v1");
  private static final KeyLayout V2 = Layouts.shipped("telemetry-v2");
  private static final KeyLayout BY_DEVICE = Layouts.shipped("telemetry-by-device");

  private static BackfillResults run(BackfillOptions o, Consumer<String> progress) {
    return new Backfill(SharedSpark.session(), SharedHBase.conf(), o).executeAll(progress);
  }

  /** The fixture's telemetry-v2 target and a history table pre-split in 8 regions. */
  private static TableName history(BackfillFixture f) throws Exception {
    TableName t = TableName.valueOf(f.target.getNameAsString() + "_dev");
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      TableCreator.table(t)
          .families(List.of(FamilySpec.parse("d:bloom=row")))
          .splitPoints(BY_DEVICE.splitPoints(8))
          .create(admin);
    }
    return t;
  }

  private static BackfillOptions.Builder both(BackfillFixture f, TableName history) {
    return BackfillOptions.builder()
        .sourceSnapshot(f.snapshot)
        .sourceLayout(V1)
        .target(f.target.getNameAsString(), V2)
        .target(history.getNameAsString(), BY_DEVICE)
        .staging(f.staging.toString());
  }

  private static void assertBothEqualTheSource(BackfillFixture f, TableName history)
      throws Exception {
    var source = TableContents.byNaturalKey(f.source, V1);
    assertEquals(source, TableContents.byNaturalKey(f.target, V2), "telemetry-v2");
    assertEquals(source, TableContents.byNaturalKey(history, BY_DEVICE), "telemetry-by-device");
  }

  @Test
  void oneReadFillsTheSaltedTableAndTheHistoryTable() throws Exception {
    BackfillFixture f = new BackfillFixture("bfmulti", 3_000, 40);
    TableName history = history(f);
    f.snapshot();

    StringBuilder plan = new StringBuilder();
    BackfillResults dry =
        run(both(f, history).dryRun(true).build(), s -> plan.append(s).append('\n'));
    assertEquals(2, dry.targets().size());
    assertTrue(
        plan.toString().contains("Target " + history + " (layout telemetry-by-device):"),
        plan.toString());
    assertEquals(16, dry.of(f.target.getNameAsString()).regions().size());
    assertEquals(8, dry.of(history.getNameAsString()).regions().size());
    assertEquals(3_000, dry.of(history.getNameAsString()).accounting().written());
    assertTrue(dry.console().contains("Plan (dry run) for " + history), dry.console());

    StringBuilder out = new StringBuilder();
    BackfillResults r = run(both(f, history).build(), s -> out.append(s).append('\n'));
    assertEquals(ExitCodes.OK, r.exitCode(), r.console());
    assertTrue(
        out.toString().contains("Reading snapshot " + f.snapshot + " once ("), out.toString());
    assertTrue(
        out.toString().contains(f.target + " in source order, " + history + " sorted"),
        out.toString());
    for (BackfillResult t : r.targets()) {
      assertTrue(t.verified(), t.lines().toString());
      assertEquals(3_000, t.accounting().read());
      assertEquals(3_000, t.accounting().written());
      assertTrue(
          Files.exists(f.staging.resolve("backfill-" + t.targetTable()).resolve("_result.json")),
          t.staging());
    }
    assertTrue(r.of(f.target.getNameAsString()).writePath().contains("source"), r.console());
    assertBothEqualTheSource(f, history);
    // reconcile compares the old table with each new one by natural key (the history table's key
    // leads with the device and reverses time), one report each; a row missing from the history
    // table fails it alone
    try (Table t = SharedHBase.connection().getTable(history);
        ResultScanner first = t.getScanner(new Scan().setLimit(1))) {
      t.delete(new Delete(first.next().getRow()));
    }
    Path reports = f.staging.resolveSibling("reconcile-" + history.getNameAsString());
    RekeyProcess.Result rec =
        RekeyProcess.run(
            300,
            "reconcile",
            "--old-table",
            f.source.getNameAsString(),
            "--old-layout",
            "telemetry-v1",
            "--target",
            f.target + "=telemetry-v2",
            "--target",
            history + "=telemetry-by-device",
            "--bucket",
            "1h",
            "--from",
            Long.toString(TelemetryGenerator.DEFAULT_START),
            "--to",
            Long.toString(TelemetryGenerator.DEFAULT_START + 86_400_000L),
            "--digest",
            "--out",
            reports.toString());
    assertEquals(ExitCodes.MISMATCH, rec.exitCode(), rec.all());
    String v2Part = rec.stdout().substring(0, rec.stdout().indexOf(f.source + " vs " + history));
    String historyPart = rec.stdout().substring(v2Part.length());
    assertTrue(v2Part.startsWith(f.source + " vs " + f.target + ":"), rec.stdout());
    assertTrue(v2Part.contains("MATCH") && !v2Part.contains("MISMATCH"), rec.stdout());
    assertTrue(historyPart.contains("MISMATCH"), rec.stdout());
    assertTrue(Files.exists(reports.resolve(f.target.getNameAsString()).resolve("reconcile.json")));
    assertTrue(Files.exists(reports.resolve(history.getNameAsString()).resolve("reconcile.json")));

    // a second run is refused per target, as a single target's is: the first one names itself
    RekeyException again =
        assertThrows(RekeyException.class, () -> run(both(f, history).build(), s -> {}));
    assertEquals(ExitCodes.REFUSED, again.exitCode());
    assertTrue(
        again.getMessage().startsWith("Cannot backfill " + f.target + ": snapshot " + f.snapshot),
        again.getMessage());
    RekeyException historyAgain =
        assertThrows(
            RekeyException.class,
            () ->
                new Backfill(
                        SharedSpark.session(),
                        SharedHBase.conf(),
                        f.options()
                            .targetTable(history.getNameAsString())
                            .targetLayout(BY_DEVICE)
                            .staging(f.staging.resolve("other").toString())
                            .build())
                    .execute(s -> {}));
    assertTrue(
        historyAgain.getMessage().startsWith("Cannot backfill " + history + ": snapshot "),
        historyAgain.getMessage());
  }

  @Test
  void eachTargetResumesFromItsOwnLedger() throws Exception {
    BackfillFixture f = new BackfillFixture("bfmultires", 2_000, 25);
    TableName history = history(f);
    f.snapshot();
    BackfillResults written = run(both(f, history).noLoad(true).build(), s -> {});
    for (BackfillResult t : written.targets()) {
      assertEquals(BackfillResult.Outcome.WRITTEN, t.outcome(), t.lines().toString());
    }
    // the driver dies while loading the second target: the first is loaded and verified
    assertThrows(
        RuntimeException.class,
        () ->
            run(
                both(f, history).resume(true).build(),
                BackfillFixture.driverKilledAfterLoading(18)));
    StringBuilder out = new StringBuilder();
    BackfillResults resumed =
        run(both(f, history).resume(true).build(), s -> out.append(s).append('\n'));
    for (BackfillResult t : resumed.targets()) {
      assertTrue(t.verified(), t.lines().toString());
    }
    assertBothEqualTheSource(f, history);
    // every region of each target loaded once: no HFile twice in the table
    assertEquals(
        resumed.of(history.getNameAsString()).filesWritten(), SharedHBase.storeFileCount(history));
  }
}

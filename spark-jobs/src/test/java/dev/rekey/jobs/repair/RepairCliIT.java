package dev.rekey.jobs.repair;

import static dev.rekey.jobs.repair.RepairFixture.D;
import static dev.rekey.jobs.repair.RepairFixture.S;
import static dev.rekey.jobs.repair.RepairFixture.V;
import static dev.rekey.jobs.repair.RepairFixture.V1;
import static dev.rekey.jobs.repair.RepairFixture.V2;
import static dev.rekey.jobs.repair.RepairFixture.contents;
import static dev.rekey.jobs.repair.RepairFixture.reading;
import static dev.rekey.jobs.repair.RepairFixture.v2Key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.demo.TelemetryReading;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.RekeyProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "done when", through {@code bin/rekey} as a user runs it: the new table damaged with
 * a plain HBase client (rows deleted, cells changed, an older version dropped), reconcile exits 3,
 * a dry run writes its mutation file and changes nothing, replaying it is refused while delete
 * markers would hide it, repair exits 0, and both tables are equal cell by cell, every version.
 */
@Tag("e2e")
class RepairCliIT {
  @TempDir Path dir;

  @Test
  void reconcileFindsTheDamageRepairPutsItBackAndTheTablesAreEqual() throws Exception {
    TableName v1 = RepairFixture.v1();
    TableName v2 = RepairFixture.v2();
    try (Table t = RepairFixture.table(v2)) {
      for (long i : new long[] {40, 41, 42}) {
        t.delete(new Delete(v2Key(reading(i))));
      }
      TelemetryReading r = reading(260);
      t.put(new Put(v2Key(r)).addColumn(D, V, r.ts(), Bytes.toBytes(-7L))); // same timestamp
      t.put(new Put(v2Key(reading(261))).addColumn(D, S, Bytes.toBytes("now"))); // stamped now
      TelemetryReading three = reading(310);
      t.delete(new Delete(v2Key(three)).addColumn(D, V, three.ts() + 1)); // a middle version
    }
    Map<String, List<String>> damaged = contents(v2, V2);
    assertNotEquals(contents(v1, V1), damaged);
    Path report = dir.resolve("reconcile-report");

    RekeyProcess.Result rc =
        rekey("reconcile", sides(v1, v2, "--digest", "--out", report.toString()));
    assertEquals(3, rc.exitCode(), rc.all());

    Path file = dir.resolve("mutations.jsonl");
    RekeyProcess.Result dry =
        rekey("repair", repairArgs(v1, v2, report, "--delete-extra", "--dry-run", file.toString()));
    assertEquals(0, dry.exitCode(), dry.all());
    assertTrue(dry.stdout().contains("dry run: nothing changed"), dry.all());
    assertEquals(damaged, contents(v2, V2));
    assertEquals(1 + 6, Files.readAllLines(file).size(), "a header and the 6 damaged rows");

    RekeyProcess.Result masked = rekey("repair", List.of("--apply", file.toString()));
    assertEquals(4, masked.exitCode(), masked.all());
    assertTrue(masked.stderr().contains("delete markers would hide"), masked.all());
    assertEquals(damaged, contents(v2, V2));

    RekeyProcess.Result fixed =
        rekey("repair", repairArgs(v1, v2, report, "--delete-extra", "--compact-if-masked"));
    assertEquals(0, fixed.exitCode(), fixed.all());
    assertTrue(fixed.stdout().contains("every repaired bucket matches now"), fixed.all());
    assertTrue(Files.isRegularFile(report.resolve(RepairReport.JSON)), fixed.all());
    assertEquals(contents(v1, V1), contents(v2, V2));

    RekeyProcess.Result again =
        rekey("reconcile", sides(v1, v2, "--digest", "--out", dir.toString()));
    assertEquals(0, again.exitCode(), again.all());
  }

  private static List<String> sides(TableName v1, TableName v2, String... more) {
    List<String> a =
        new ArrayList<>(
            List.of(
                "--old-table", v1.getNameAsString(),
                "--old-layout", Layouts.file("telemetry-v1").toString(),
                "--new-table", v2.getNameAsString(),
                "--new-layout", Layouts.file("telemetry-v2").toString(),
                "--bucket", "1h",
                "--from", Long.toString(RepairFixture.START),
                "--to", Long.toString(RepairFixture.START + 3 * RepairFixture.HOUR)));
    a.addAll(List.of(more));
    return a;
  }

  private static List<String> repairArgs(TableName v1, TableName v2, Path report, String... more) {
    List<String> a =
        new ArrayList<>(
            List.of(
                "--old-table",
                v1.getNameAsString(),
                "--via-snapshot",
                "--old-layout",
                Layouts.file("telemetry-v1").toString(),
                "--new-table",
                v2.getNameAsString(),
                "--new-layout",
                Layouts.file("telemetry-v2").toString(),
                "--from-reconcile",
                report.resolve("reconcile.json").toString()));
    a.addAll(List.of(more));
    return a;
  }

  private static RekeyProcess.Result rekey(String command, List<String> args) throws Exception {
    List<String> all = new ArrayList<>();
    all.add(command);
    all.addAll(args);
    return RekeyProcess.run(300, all.toArray(new String[0]));
  }
}

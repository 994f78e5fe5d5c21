package dev.rekey.jobs.repair;

import static dev.rekey.jobs.repair.RepairFixture.D;
import static dev.rekey.jobs.repair.RepairFixture.HOUR;
import static dev.rekey.jobs.repair.RepairFixture.S;
import static dev.rekey.jobs.repair.RepairFixture.START;
import static dev.rekey.jobs.repair.RepairFixture.V;
import static dev.rekey.jobs.repair.RepairFixture.V1;
import static dev.rekey.jobs.repair.RepairFixture.V2;
import static dev.rekey.jobs.repair.RepairFixture.contents;
import static dev.rekey.jobs.repair.RepairFixture.opts;
import static dev.rekey.jobs.repair.RepairFixture.reading;
import static dev.rekey.jobs.repair.RepairFixture.repair;
import static dev.rekey.jobs.repair.RepairFixture.v2Key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.jobs.reconcile.Reconcile;
import dev.rekey.jobs.reconcile.ReconcileOptions;
import dev.rekey.jobs.reconcile.ReconcileResult;
import dev.rekey.jobs.reconcile.SideSpec;
import dev.rekey.rowkey.Hex;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * repair end to end on the embedded HBase: damage done to the new table with a plain HBase client
 * (rows deleted, a value changed, an older version dropped, an extra row, a cell re-put at the
 * current time), then repair, then an all-versions comparison of both tables by natural key.
 */
@Tag("e2e")
class RepairIT {
  @TempDir Path dir;

  /** Hour 0: three rows deleted (Delete markers over their cells: the masking trap). */
  static void deleteRows(Table t, long... readings) throws Exception {
    for (long i : readings) {
      t.delete(new Delete(v2Key(reading(i))));
    }
  }

  /** A value changed at its own timestamp (no marker): the old value must come back. */
  static ReconcileResult reconcile(TableName v1, TableName v2, Path out) {
    return reconcile(RepairFixture.oldTable(v1), v2, out);
  }

  static ReconcileResult reconcile(SideSpec old, TableName v2, Path out) {
    return new Reconcile(
            SharedSpark.session(),
            SharedHBase.conf(),
            ReconcileOptions.builder()
                .old(old)
                .neu(RepairFixture.newTable(v2))
                .from(START)
                .to(START + 3 * HOUR)
                .bucket("1h")
                .digest(true)
                .out(out == null ? null : out.toString())
                .build())
        .execute();
  }

  @Test
  void everyKindOfDamageIsRepairedUntilBothTablesAreEqual() throws Exception {
    TableName v1 = RepairFixture.v1();
    TableName v2 = RepairFixture.v2();
    TelemetryReading extra = new TelemetryReading(START + 2 * HOUR + 777, new byte[16], 5, "x");
    try (Table t = RepairFixture.table(v2)) {
      deleteRows(t, 30, 31, 32); // hour 0
      RepairFixture.changeValue(t, 250); // hour 1
      TelemetryReading r = reading(300); // hour 1, 3 versions of v: the oldest dropped
      t.delete(new Delete(v2Key(r)).addColumn(D, V, r.ts()));
      t.put(
          new Put(v2Key(extra)) // hour 2: a row the old side never had
              .addColumn(D, V, extra.ts(), Bytes.toBytes(5L))
              .addColumn(D, S, extra.ts(), Bytes.toBytes("x")));
      // hour 2: a cell re-put at the current time, as a client without timestamps does
      t.put(new Put(v2Key(reading(450))).addColumn(D, S, Bytes.toBytes("changed")));
    }
    assertEquals(3, reconcile(v1, v2, dir.resolve("before")).exitCode());

    RekeyException masked =
        assertThrows(
            RekeyException.class,
            () ->
                repair(
                    opts(RepairFixture.oldTable(v1), v2, dir)
                        .viaSnapshot(true)
                        .deleteExtra(true)
                        .build()));
    assertTrue(
        masked
            .getMessage()
            .startsWith(
                "Cannot repair "
                    + v2
                    + ": delete markers would hide 9 of the cells to put, in 4 rows"),
        masked.getMessage());
    assertTrue(masked.getMessage().contains("`major_compact '" + v2 + "'`"), masked.getMessage());
    assertTrue(masked.getMessage().endsWith("or add --compact-if-masked"), masked.getMessage());
    assertNotEquals(contents(v1, V1), contents(v2, V2));

    RepairResult r =
        repair(
            opts(RepairFixture.oldTable(v1), v2, dir)
                .viaSnapshot(true)
                .deleteExtra(true)
                .compactIfMasked(true)
                .build());
    assertEquals(0, r.exitCode(), r.console());
    assertTrue(r.compacted(), r.console());
    // the deleted rows' 8 cells (reading 30 has 3 versions of v), the changed value, the dropped
    // version
    assertEquals(8 + 1 + 1, r.cellsPut(), r.console());
    assertEquals(3, r.cellsDeleted(), r.console()); // the extra row's 2 cells + the re-put cell
    assertEquals(List.of(0, 1, 2), r.buckets().stream().map(TimeBucketRepair::index).toList());
    assertEquals(contents(v1, V1), contents(v2, V2));
    assertEquals(0, reconcile(v1, v2, dir.resolve("after")).exitCode());
    assertTrue(Files.exists(dir.resolve(RepairReport.JSON)));
    assertTrue(Files.readString(dir.resolve(RepairReport.HTML)).contains("matches now"));
    assertFalse(Files.exists(dir.resolve(Checkpoint.FILE)));
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      assertTrue(
          admin.listSnapshots().stream().noneMatch(s -> s.getName().startsWith("rekey_repair_")),
          "the run's snapshot is deleted");
    }
  }

  @Test
  void aKilledRunResumesWithoutWritingABucketTwice() throws Exception {
    RepairFixture.Migration m = RepairFixture.changedValues(10, 410); // hours 0 and 2
    TableName v1 = m.v1();
    String snap = m.snapshot();
    TableName v2 = m.v2();
    Path report = dir.resolve("reconcile");
    reconcile(RepairFixture.oldSnapshot(snap), v2, report);
    RepairOptions.Builder o =
        RepairOptions.builder()
            .old(RepairFixture.oldSnapshot(snap))
            .neu(RepairFixture.newTable(v2))
            .fromReconcile(report.resolve("reconcile.json"));

    // the process dies right after the first bucket
    assertThrows(
        RepairFixture.Killed.class,
        () -> repair(o.build(), RepairFixture.killedAt(line -> line.contains(" written: "))));
    Path checkpoint = report.resolve(Checkpoint.FILE);
    assertTrue(Files.exists(checkpoint));

    RekeyException again = assertThrows(RekeyException.class, () -> repair(o.build()));
    assertTrue(again.getMessage().contains("add --resume to go on from it"), again.getMessage());
    assertEquals(ExitCodes.REFUSED, again.exitCode(), "an unfinished run to resume is a refusal");

    RepairResult r = repair(o.resume(true).build());
    assertEquals(0, r.exitCode(), r.console());
    TimeBucketRepair first = r.buckets().get(0);
    assertEquals(0, first.index());
    assertTrue(first.resumed(), r.console());
    assertNull(first.found(), "the resumed run did not compare or write bucket 0 again");
    assertEquals("repaired by the earlier run", first.status());
    assertEquals(2, r.buckets().get(1).index());
    assertEquals(1, r.buckets().get(1).written().cellsPut());
    assertEquals(1, r.cellsPut(), "this run wrote bucket 2 only");
    assertEquals(contents(v1, V1), contents(v2, V2));
    assertFalse(Files.exists(checkpoint));
    assertTrue(Files.exists(report.resolve(RepairReport.JSON)), "beside reconcile.json");
  }

  @Test
  void dualWritesDuringTheRepairAndAnExtraRowNewerThanTheSnapshotAreKept() throws Exception {
    TableName v1 = RepairFixture.v1();
    TableName v2 = RepairFixture.v2();
    try (Table t = RepairFixture.table(v2)) {
      RepairFixture.changeValue(t, 20); // hour 0
      RepairFixture.changeValue(t, 21);
    }
    DualWriter writer = new DualWriter(v1, v2);
    RepairResult r;
    try {
      r =
          repair(
              opts(RepairFixture.oldTable(v1), v2, dir).viaSnapshot(true).deleteExtra(true).build(),
              line -> {
                if (line.startsWith("  old side: snapshot")) {
                  writer.start(); // writes newer than the snapshot from here on
                }
              });
    } finally {
      writer.stop();
    }
    assertTrue(writer.written() > 0);
    assertEquals(0, r.exitCode(), r.console());
    assertEquals(2, r.cellsPut(), r.console()); // the changed values of readings 20 and 21
    assertEquals(0, r.cellsDeleted(), "dual writes are never deleted, --delete-extra or not");
    assertTrue(r.buckets().get(0).after().newerCellsKept() > 2, r.console());
    Map<String, List<String>> neu = contents(v2, V2);
    assertEquals(contents(v1, V1), neu);
    assertTrue(
        neu.keySet().stream().anyMatch(k -> k.contains(Hex.of(EXTRA_DEVICE))),
        "the extra row newer than the snapshot is kept, --delete-extra or not");
  }

  @Test
  void aDryRunChangesNothingAndItsFileReplays() throws Exception {
    RepairFixture.Migration m = RepairFixture.changedValues(250);
    TableName v1 = m.v1();
    String snap = m.snapshot();
    TableName v2 = m.v2();
    Map<String, List<String>> damaged = contents(v2, V2);
    Path file = dir.resolve("mutations.jsonl");
    RepairResult dry = repair(opts(RepairFixture.oldSnapshot(snap), v2, dir).dryRun(file).build());
    assertEquals(0, dry.exitCode(), dry.console());
    assertTrue(dry.dryRun());
    assertEquals(damaged, contents(v2, V2), "a dry run changes nothing");
    List<String> lines = Files.readAllLines(file);
    assertEquals(2, lines.size(), String.join("\n", lines));
    assertTrue(lines.get(1).contains("\"kind\":\"CONTENT_DIFFERS\""), lines.get(1));

    RepairResult a =
        repair(RepairOptions.builder().apply(file).out(dir.resolve("applied")).build());
    assertEquals(0, a.exitCode(), "the replay ends with the re-check: " + a.console());
    assertEquals(1, a.cellsPut());
    // the bucket the dry run found differing (hour 1), compared again
    assertEquals(List.of(1), a.buckets().stream().map(TimeBucketRepair::index).toList());
    assertTrue(a.buckets().stream().allMatch(TimeBucketRepair::matchesNow), a.console());
    assertTrue(Files.exists(dir.resolve("applied").resolve(RepairReport.JSON)));
    assertEquals(contents(v1, V1), contents(v2, V2));
  }

  /**
   * Dual writes, as an application writing both tables does: the status of hour-0 readings re-put
   * at the current time, into v1 then v2, until stopped.
   */
  static final byte[] EXTRA_DEVICE = Bytes.toBytes("dual-writer-row!");

  static final class DualWriter {
    private final TableName v1;
    private final TableName v2;
    private Thread thread;
    private volatile boolean stop;
    private volatile int written;
    private volatile Exception failed;

    DualWriter(TableName v1, TableName v2) {
      this.v1 = v1;
      this.v2 = v2;
    }

    synchronized void start() {
      if (thread != null) {
        return;
      }
      thread =
          new Thread(
              () -> {
                try (Table a = RepairFixture.table(v1);
                    Table b = RepairFixture.table(v2)) {
                  // a whole row the old side's snapshot never had, in hour 0, stamped now
                  TelemetryReading extra = new TelemetryReading(START + 999, EXTRA_DEVICE, 9, "n");
                  long t = System.currentTimeMillis();
                  a.put(RepairFixture.at(RepairFixture.v1Key(extra), extra, t));
                  b.put(RepairFixture.at(v2Key(extra), extra, t));
                  for (long i = 100; !stop && i < 200; i++) {
                    if (i % 10 == 0) {
                      continue; // v has 3 versions there: keep s to 2
                    }
                    TelemetryReading r = reading(i);
                    long now = System.currentTimeMillis();
                    byte[] s = Bytes.toBytes("dual" + i);
                    a.put(new Put(RepairFixture.v1Key(r)).addColumn(D, S, now, s));
                    b.put(new Put(v2Key(r)).addColumn(D, S, now, s));
                    written++;
                    Thread.sleep(20);
                  }
                } catch (Exception e) {
                  failed = e;
                }
              },
              "dual-writer");
      thread.start();
    }

    void stop() throws Exception {
      stop = true;
      if (thread != null) {
        thread.join();
      }
      if (failed != null) {
        throw failed;
      }
    }

    int written() {
      return written;
    }
  }
}

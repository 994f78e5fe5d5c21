package dev.rekey.jobs.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.RekeyException;
import dev.rekey.common.TimeWindow;
import dev.rekey.demo.EventGenerator;
import dev.rekey.demo.EventsTable;
import dev.rekey.read.Source;
import dev.rekey.rowkey.KeyLayout;
import dev.rekey.testing.Layouts;
import dev.rekey.testing.Leftovers;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Faults of the scan's source on the embedded server: the snapshot it reads deleted mid-scan, and
 * the snapshots killed scans of the table left behind.
 */
@Tag("e2e")
class ScanSourceFaultsIT {
  private static final int EVENTS = 600;
  private static KeyLayout events;
  private static TableName table;
  private static EventGenerator gen;
  private static final TimeWindow DAY = TimeWindow.ofDay("2026-11-29");

  @BeforeAll
  static void eventsTable() throws Exception {
    events = Layouts.shipped("events-v2");
    gen =
        new EventGenerator(
            EVENTS, 40, dev.rekey.demo.TelemetryGenerator.DEFAULT_START, 86_400_000L);
    table = SharedHBase.uniqueTable("scan_faults");
    try (Admin admin = SharedHBase.connection().getAdmin()) {
      EventsTable.create(admin, table, events, 4);
      EventsTable.write(SharedHBase.connection(), table, events, gen);
      admin.flush(table);
    }
  }

  private static ScanResult run(ScanOptions o, List<String> lines, Runnable atRead) {
    return new ScanJob(SharedSpark.session(), SharedHBase.conf(), o)
        .execute(
            line -> {
              lines.add(line);
              if (line.startsWith("  scanning ")) {
                atRead.run();
              }
            });
  }

  private static ScanOptions.Builder options(Path out) {
    return ScanOptions.builder()
        .layout(events)
        .window(DAY)
        .report(ReportFile.load(ReportFile.resolve("user_daily_activity", SharedHBase.rekeyHome())))
        .out(out);
  }

  private static Path out(String name) {
    return SharedHBase.runRoot().resolve("scan-faults").resolve(name + "-" + System.nanoTime());
  }

  @Test
  void aSnapshotDeletedMidScanFailsNamingItAndWritesNoReport() throws Exception {
    Admin admin = SharedHBase.connection().getAdmin();
    String snapshot = table.getNameAsString() + "_gone";
    admin.snapshot(snapshot, table);
    Path out = out("gone");
    RekeyException e =
        assertThrows(
            RekeyException.class,
            () ->
                run(
                    options(out).snapshot(snapshot).build(),
                    new ArrayList<>(),
                    SharedHBase.snapshotDeleter(snapshot)));
    assertTrue(
        e.getMessage()
            .startsWith(
                "Cannot scan snapshot "
                    + snapshot
                    + ": snapshot "
                    + snapshot
                    + " does not exist any more, and the job was reading it"),
        e.getMessage());
    assertTrue(e.getMessage().contains("No report was written. Take the snapshot again"));
    assertFalse(Files.exists(out), "no output dir: " + out);
  }

  @Test
  void aKilledScansSnapshotAndRestoreDirAreSweptByTheNextScanOfTheTable() throws Exception {
    Admin admin = SharedHBase.connection().getAdmin();
    Leftovers.Leftover killed =
        Leftovers.leave(admin, table, "scan", "dead0001", Leftovers.deadPid());
    Leftovers.Leftover running =
        Leftovers.leave(admin, table, "scan", "live0001", ProcessHandle.current().pid());
    List<String> lines = new ArrayList<>();
    ScanResult r =
        run(
            options(out("sweep")).source(Source.tableViaSnapshot(table.getNameAsString())).build(),
            lines,
            () -> {});
    assertTrue(
        lines.stream()
            .anyMatch(l -> l.startsWith("  removed a killed scan's snapshot " + killed.snapshot())),
        lines.toString());
    assertFalse(killed.snapshotExists(admin), "the killed scan's snapshot is removed");
    assertFalse(killed.restoreDirExists(), "and its restore dir");
    assertFalse(killed.ownerFileExists(), "and its owner file");
    assertTrue(running.snapshotExists(admin), "a running scan's snapshot is kept");
    assertTrue(running.restoreDirExists(), "with its restore dir");
    long inDay = 0;
    for (int i = 0; i < gen.events(); i++) {
      long ts = gen.event(i).ts();
      inDay += ts >= DAY.from() && ts < DAY.to() ? 1 : 0;
    }
    assertTrue(inDay > 0);
    assertEquals(inDay, r.rows(), "the scan after the sweep reads every row of the day");
    Leftovers.remove(admin, running);
  }
}

package dev.rekey.jobs.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.RekeyException;
import dev.rekey.demo.TelemetryReading;
import dev.rekey.testing.Leftovers;
import dev.rekey.testing.SharedHBase;
import dev.rekey.testing.SharedSpark;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Faults of reconcile's sources on the embedded server: a snapshot side deleted mid-run, and the
 * snapshots killed reconciles of the tables left behind.
 */
@Tag("e2e")
class ReconcileSourceFaultsIT {
  private static TableName v1;
  private static TableName v2;

  @BeforeAll
  static void tables() throws Exception {
    List<TelemetryReading> readings = TelemetryFixture.readings();
    v1 = TelemetryFixture.v1Table(readings);
    v2 = TelemetryFixture.v2Table(TelemetryFixture.v2Puts(readings));
  }

  private static ReconcileOptions.Builder options(SideSpec old) {
    return ReconcileOptions.builder()
        .old(old)
        .neu(SideSpec.table("new", v2.getNameAsString(), TelemetryFixture.V2))
        .from(TelemetryFixture.START)
        .to(TelemetryFixture.START + 6 * TelemetryFixture.HOUR)
        .bucket("1h")
        .digest(true);
  }

  private static ReconcileResult run(ReconcileOptions o, List<String> lines, Runnable atRead) {
    return new Reconcile(SharedSpark.session(), SharedHBase.conf(), o)
        .execute(
            line -> {
              lines.add(line);
              if (line.startsWith("  comparing ")) {
                atRead.run();
              }
            });
  }

  @Test
  void aSnapshotSideDeletedMidRunFailsNamingItAndReturnsNoResult() throws Exception {
    Admin admin = SharedHBase.connection().getAdmin();
    String snapshot = v1.getNameAsString() + "_gone";
    admin.flush(v1);
    admin.snapshot(snapshot, v1);
    RekeyException e =
        assertThrows(
            RekeyException.class,
            () ->
                run(
                    options(SideSpec.snapshot("old", snapshot, TelemetryFixture.V1)).build(),
                    new ArrayList<>(),
                    SharedHBase.snapshotDeleter(snapshot)));
    assertTrue(
        e.getMessage()
            .startsWith(
                "Cannot reconcile snapshot "
                    + snapshot
                    + " and table "
                    + v2
                    + ": snapshot "
                    + snapshot
                    + " does not exist any more, and the job was reading it"),
        e.getMessage());
    assertTrue(e.getMessage().contains("No result was written. Take the snapshot again"));
  }

  @Test
  void aKilledReconcilesSnapshotsAreSweptByTheNextReconcileOfTheTables() throws Exception {
    Admin admin = SharedHBase.connection().getAdmin();
    long dead = Leftovers.deadPid();
    Leftovers.Leftover oldKilled = Leftovers.leave(admin, v1, "reconcile", "dead0001", dead);
    Leftovers.Leftover newKilled = Leftovers.leave(admin, v2, "reconcile", "dead0002", dead);
    Leftovers.Leftover running =
        Leftovers.leave(admin, v1, "reconcile", "live0001", ProcessHandle.current().pid());
    List<String> lines = new ArrayList<>();
    ReconcileResult r =
        run(
            options(SideSpec.table("old", v1.getNameAsString(), TelemetryFixture.V1))
                .viaSnapshot(true)
                .build(),
            lines,
            () -> {});
    assertEquals(0, r.exitCode(), "the tables match");
    for (Leftovers.Leftover killed : List.of(oldKilled, newKilled)) {
      assertTrue(
          lines.stream()
              .anyMatch(
                  l ->
                      l.startsWith("  removed a killed reconcile's snapshot " + killed.snapshot())),
          lines.toString());
      assertFalse(killed.snapshotExists(admin), killed.snapshot() + " removed");
      assertFalse(killed.restoreDirExists(), "with its restore dir");
      assertFalse(killed.ownerFileExists(), "and its owner file");
    }
    assertTrue(running.snapshotExists(admin), "a running reconcile's snapshot is kept");
    assertTrue(running.restoreDirExists(), "with its restore dir");
    Leftovers.remove(admin, running);
  }
}

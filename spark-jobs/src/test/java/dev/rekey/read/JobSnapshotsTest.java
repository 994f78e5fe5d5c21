package dev.rekey.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.RunLease;
import dev.rekey.common.RunOwner;
import java.time.Instant;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The pure parts of the temporary snapshots: their names, and which leftovers are a dead run's. */
@Tag("unit")
class JobSnapshotsTest {
  static final long NOW = Instant.parse("2026-12-07T12:00:00Z").toEpochMilli();

  @Test
  void aSnapshotIsNamedAfterItsPurposeAndTableWithTheNamespaceSeparatorReplaced() {
    JobSnapshots repair = new JobSnapshots(JobSnapshots.REPAIR, new Configuration(false));
    assertEquals("rekey_repair_ns_events_", repair.prefix(TableName.valueOf("ns:events")));
    assertEquals("rekey_repair_events_", repair.prefix(TableName.valueOf("default:events")));
    assertEquals(
        "rekey_scan_events_",
        new JobSnapshots(JobSnapshots.SCAN, null).prefix(TableName.valueOf("events")));
  }

  @Test
  void eachTakenSnapshotGetsItsOwnIdAfterThePrefixRekeyCleanupLooksFor() {
    TableName t = TableName.valueOf("ns:events");
    String a = TemporarySnapshot.newName(JobSnapshots.RECONCILE, t);
    String b = TemporarySnapshot.newName(JobSnapshots.RECONCILE, t);
    assertTrue(a.matches("rekey_reconcile_ns_events_[0-9a-f]{8}"), a);
    assertTrue(a.startsWith(TemporarySnapshots.PREFIX), a);
    assertNotEquals(a, b, "two runs on one table never share a snapshot");
  }

  /** An owner line renewed {@code agoMillis} ago. */
  private static TemporarySnapshots.Owner owner(String line, long agoMillis) {
    return new TemporarySnapshots.Owner(line, agoMillis);
  }

  private static final String ME = "gateway 4242 2026-12-07T11:00:00Z";

  @Test
  void aSnapshotWhoseOwnerProcessOfThisHostIsGoneIsDead() throws Exception {
    Process p = new ProcessBuilder("true").start();
    p.waitFor();
    String host = RunOwner.line().split(" ")[0];
    assertTrue(
        TemporarySnapshots.isDead(
            owner(host + " " + p.pid() + " " + Instant.now(), 0), NOW, NOW, ME));
  }

  @Test
  void aRunStillGoingOnAnyHostKeepsItsSnapshotWhateverItsAge() {
    long old = NOW - TemporarySnapshots.UNOWNED_AGE.toMillis() * 10;
    long fresh = RunLease.RENEW_MILLIS;
    assertFalse(
        TemporarySnapshots.isDead(owner(RunOwner.line(), fresh), old, NOW, ME),
        "this process runs");
    assertFalse(
        TemporarySnapshots.isDead(owner("worker2 1 2026-12-01T00:00:00Z", fresh), old, NOW, ME),
        "a process of another host that renews its owner file runs, whatever its pid here");
    assertFalse(
        TemporarySnapshots.isDead(owner("garbled", fresh), old, NOW, ME),
        "an unreadable owner still renewed is kept");
  }

  @Test
  void anOwnerOnAnotherHostIsDeadOnceItStopsRenewingOrAsAnEarlierAttemptOfThisApplication() {
    String elsewhere = "worker2 1 2026-12-01T00:00:00Z";
    assertFalse(
        TemporarySnapshots.isDead(owner(elsewhere, RunLease.LEASE_MILLIS), NOW, NOW, ME),
        "within its lease");
    assertTrue(
        TemporarySnapshots.isDead(owner(elsewhere, RunLease.LEASE_MILLIS + 1), NOW, NOW, ME),
        "a lease not renewed: its run died on its host");
    String attempt1 = "worker1 77 2026-12-07T11:00:00Z app=application_1_0001 attempt=1";
    String attempt2 = "worker2 88 2026-12-07T11:05:00Z app=application_1_0001 attempt=2";
    assertTrue(
        TemporarySnapshots.isDead(owner(attempt1, 0), NOW, NOW, attempt2),
        "YARN's second attempt sweeps the killed first attempt's snapshot at once");
    assertFalse(
        TemporarySnapshots.isDead(
            owner("worker1 77 2026-12-07T11:00:00Z app=application_1_0002 attempt=1", 0),
            NOW,
            NOW,
            attempt2),
        "another application's live run is kept");
  }

  @Test
  void aSnapshotWithoutOwnerIsDeadOnlyOnceOlderThanTheUnownedAge() {
    long age = TemporarySnapshots.UNOWNED_AGE.toMillis();
    assertTrue(TemporarySnapshots.isDead(null, NOW - age - 1, NOW, ME));
    assertFalse(TemporarySnapshots.isDead(null, NOW - age, NOW, ME));
    assertFalse(TemporarySnapshots.isDead(null, NOW - 1_000, NOW, ME));
  }
}

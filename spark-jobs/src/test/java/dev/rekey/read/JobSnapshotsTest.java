package dev.rekey.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

  @Test
  void aSnapshotWhoseOwnerProcessOfThisHostIsGoneIsDead() throws Exception {
    Process p = new ProcessBuilder("true").start();
    p.waitFor();
    String host = RunOwner.line().split(" ")[0];
    assertTrue(TemporarySnapshots.isDead(host + " " + p.pid() + " " + Instant.now(), NOW, NOW));
  }

  @Test
  void aRunStillGoingOrOnAnotherHostKeepsItsSnapshotWhateverItsAge() {
    long old = NOW - TemporarySnapshots.UNOWNED_AGE.toMillis() * 10;
    assertFalse(TemporarySnapshots.isDead(RunOwner.line(), old, NOW), "this process runs");
    assertFalse(
        TemporarySnapshots.isDead("elsewhere.example 1 2026-12-01T00:00:00Z", old, NOW),
        "a process of another host is never assumed gone");
    assertFalse(TemporarySnapshots.isDead("garbled", old, NOW), "an unreadable owner is kept");
  }

  @Test
  void aSnapshotWithoutOwnerIsDeadOnlyOnceOlderThanTheUnownedAge() {
    long age = TemporarySnapshots.UNOWNED_AGE.toMillis();
    assertTrue(TemporarySnapshots.isDead(null, NOW - age - 1, NOW));
    assertFalse(TemporarySnapshots.isDead(null, NOW - age, NOW));
    assertFalse(TemporarySnapshots.isDead(null, NOW - 1_000, NOW));
  }
}

package dev.rekey.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("unit")
class RunOwnerTest {
  private static final long LEASE = RunLease.LEASE_MILLIS;
  private static final String ATTEMPT_1 =
      "worker1 4242 2026-12-07T10:00:00Z app=application_1765_0003 attempt=1";
  private static final String ATTEMPT_2 =
      "worker2 777 2026-12-07T10:05:00Z app=application_1765_0003 attempt=2";

  @Test
  void aLaterAttemptOfTheSameApplicationTakesOverAtOnce() {
    String why = RunOwner.stale(ATTEMPT_1, 1_000, LEASE, ATTEMPT_2).orElseThrow();
    assertTrue(why.contains("attempt 1 of this application"), why);
  }

  @Test
  void anotherApplicationOnAnotherHostIsLiveWhileItRenews() {
    String other = "worker2 777 2026-12-07T10:05:00Z app=application_1765_0004 attempt=1";
    assertEquals(Optional.empty(), RunOwner.stale(ATTEMPT_1, 1_000, LEASE, other));
    assertEquals(Optional.empty(), RunOwner.stale(ATTEMPT_1, LEASE, LEASE, other));
    // the same attempt (itself, or a line without attempts) is never "an earlier attempt"
    assertEquals(Optional.empty(), RunOwner.stale(ATTEMPT_1, 1_000, LEASE, ATTEMPT_1));
    assertEquals(
        Optional.empty(),
        RunOwner.stale(
            "gw 1 2026-12-07T10:00:00Z app=local-1", 1_000, LEASE, "gw 2 x app=local-1"));
  }

  @Test
  void aLeaseNotRenewedOnAnyHostIsTakenOver() {
    String why =
        RunOwner.stale("worker9 1 2026-12-07T10:00:00Z", LEASE + 1_000, LEASE, ATTEMPT_2)
            .orElseThrow();
    assertTrue(why.contains("renewed it " + (LEASE + 1_000) / 1000 + " s ago"), why);
  }

  @Test
  void aDeadProcessOfThisHostIsTakenOverAtOnce() throws Exception {
    Process p = new ProcessBuilder("true").start();
    p.waitFor();
    String host = RunOwner.line().split(" ")[0];
    String why =
        RunOwner.stale(host + " " + p.pid() + " x", 0, LEASE, RunOwner.line()).orElseThrow();
    assertTrue(why.contains("no longer runs"), why);
  }

  @Test
  void theLeaseRenewsTheLockFileAndItsAgeIsMeasuredFromIt(@TempDir Path tmp) throws Exception {
    Path lock = Files.writeString(tmp.resolve("_lock"), "x\n");
    FileSystem fs = FileSystem.getLocal(new Configuration());
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(lock.toUri());
    fs.setTimes(p, System.currentTimeMillis() - LEASE - 60_000, -1);
    assertTrue(RunLease.age(fs, p) > LEASE);
    // what a renewal does
    fs.setTimes(p, System.currentTimeMillis(), -1);
    assertTrue(RunLease.age(fs, p) < 5_000);
  }
}

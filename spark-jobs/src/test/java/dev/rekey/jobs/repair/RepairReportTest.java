package dev.rekey.jobs.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RepairReportTest {
  private static final long T = 1_796_000_000_000L;

  @Test
  void aLiveOldTableIsNamedWithTheSnapshotTheRunTookOfIt() {
    assertEquals(
        "table telemetry_v1 (snapshot rekey_repair_1, taken 2026-11-30T00:53:20Z",
        RepairReport.oldSide("table telemetry_v1", "rekey_repair_1", T));
  }

  @Test
  void anOldSnapshotIsNamedOnce() {
    // --old-snapshot, or the one snapshot several targets share
    assertEquals(
        "snapshot rekey_repair_1 (taken 2026-11-30T00:53:20Z",
        RepairReport.oldSide("snapshot rekey_repair_1", "rekey_repair_1", T));
  }
}

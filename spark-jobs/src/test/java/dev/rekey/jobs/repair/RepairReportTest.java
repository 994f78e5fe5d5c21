package dev.rekey.jobs.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RepairReportTest {
  @Test
  void aLiveOldTableIsNamedWithTheSnapshotTheRunTookOfIt() {
    assertEquals(
        "table telemetry_v1 (snapshot rekey_repair_1)",
        RepairReport.oldSide("table telemetry_v1", "rekey_repair_1"));
  }

  @Test
  void anOldSnapshotIsNamedOnce() {
    // --old-snapshot, or the one snapshot several targets share
    assertEquals(
        "snapshot rekey_repair_1",
        RepairReport.oldSide("snapshot rekey_repair_1", "rekey_repair_1"));
  }
}

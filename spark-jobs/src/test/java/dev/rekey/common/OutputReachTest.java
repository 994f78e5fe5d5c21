package dev.rekey.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class OutputReachTest {
  @Test
  void aLocalMasterWritesWhereItRuns() {
    assertEquals(Optional.empty(), OutputReach.refusal("--out", "file:/o", true, false, List.of()));
  }

  @Test
  void executorsOnOtherHostsAreRefusedByName() {
    String why =
        OutputReach.refusal("--out", "file:/o", false, false, List.of("worker2", "worker1"))
            .orElseThrow();
    assertTrue(why.contains("--out file:/o"), why);
    assertTrue(why.contains("worker1, worker2"), why);
    assertTrue(why.contains("hdfs:///"), why);
  }

  @Test
  void aClusterModeDriverOnAnotherHostIsRefused() {
    String why = OutputReach.refusal("--out", "file:/o", false, true, List.of()).orElseThrow();
    assertTrue(why.contains("cluster deploy mode"), why);
  }

  @Test
  void everyProcessOnThisHostWrites() {
    assertEquals(
        Optional.empty(), OutputReach.refusal("--out", "file:/o", false, false, List.of()));
  }
}

package dev.rekey.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.ExitCodes;
import dev.rekey.common.RekeyException;
import dev.rekey.read.Source;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A --target value: parsed, read, and the folder its table's files go in (no Spark, no HBase). */
@Tag("unit")
class TargetTest {
  @Test
  void aValueIsATableAndItsLayout() {
    Target t = Target.parse("ns:by_device=telemetry-by-device");
    assertEquals("ns:by_device", t.table());
    assertEquals("telemetry-by-device", t.layout().name());
    assertNull(t.snapshot());
    assertEquals(Source.table("ns:by_device"), t.source());
  }

  @Test
  void aTargetWithASnapshotReadsTheSnapshot() {
    Target t = new Target("t2", Target.parse("t2=telemetry-v2").layout(), "t2_snap");
    assertEquals(Source.snapshot("t2_snap"), t.source());
  }

  @Test
  void aValueOfAnotherShapeOrAnUnknownLayoutIsAUsageErrorNamingIt() {
    for (String bad : new String[] {"t2", "=telemetry-v2", "t2=", ""}) {
      RekeyException e = assertThrows(RekeyException.class, () -> Target.parse(bad));
      assertEquals(ExitCodes.USAGE, e.exitCode());
      assertEquals(
          "Invalid --target '"
              + bad
              + "': expected TABLE=LAYOUT (e.g. --target telemetry_by_device=telemetry-by-device)",
          e.getMessage());
    }
    RekeyException e = assertThrows(RekeyException.class, () -> Target.parse("t2=no-such-layout"));
    assertEquals(ExitCodes.USAGE, e.exitCode());
    assertTrue(e.getMessage().contains("--target t2=no-such-layout"), e.getMessage());
  }

  @Test
  void aTablesFolderWritesTheNamespaceColonAsAnUnderscore() {
    assertEquals("ns_table", Target.folderName("ns:table"));
    assertEquals("table", Target.folderName("table"));
    assertEquals("ns_t", Target.parse("ns:t=telemetry-v2").folderName());
  }
}

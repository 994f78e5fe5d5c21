package dev.rekey.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class VersionsTest {
  @Test
  void allOrAPositiveCount() {
    assertTrue(Versions.parse("all", "--versions").isAll());
    assertTrue(Versions.parse("ALL", "--versions").isAll());
    assertEquals(3, Versions.parse("3", "--versions").max());
    assertEquals(2, Versions.parse("all", "--versions").capAt(2));
    assertEquals("all", Versions.ALL.toString());
    assertEquals("1", Versions.NEWEST.toString());
  }

  @Test
  void anythingElseIsAUsageErrorNamingTheOption() {
    for (String bad : new String[] {"0", "-1", "two", ""}) {
      RekeyException e =
          assertThrows(RekeyException.class, () -> Versions.parse(bad, "--versions"));
      assertEquals(ExitCodes.USAGE, e.exitCode());
      assertEquals(
          "Invalid --versions '" + bad + "': expected a positive number of versions or 'all'",
          e.getMessage());
    }
  }
}

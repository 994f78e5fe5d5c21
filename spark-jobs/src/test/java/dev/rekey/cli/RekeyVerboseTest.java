package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** --verbose as picocli parses it: an option of the command, not a word anywhere on the line. */
@Tag("unit")
class RekeyVerboseTest {
  @Test
  void verboseIsTheCommandsOption() {
    assertTrue(verbose("get", "--table", "t", "--layout", "telemetry-v2", "--verbose", "ts=1"));
    assertTrue(verbose("get", "--table", "t", "--layout", "telemetry-v2", "-v", "ts=1"));
    assertFalse(verbose("get", "--table", "t", "--layout", "telemetry-v2", "ts=1"));
    // a value that holds "--verbose" is not the option
    assertFalse(verbose("get", "--table", "t", "--layout", "telemetry-v2", "--", "note=--verbose"));
  }

  private static boolean verbose(String... args) {
    return Rekey.verbose(Rekey.commandLine().parseArgs(args));
  }
}

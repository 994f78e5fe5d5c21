package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command's --help ends with the one exit-code contract, refusals (4) included. */
@Tag("unit")
class ExitCodeHelpTest {
  @Test
  void everyCommandsHelpListsTheSameExitCodes() {
    CommandLine rekey = Rekey.commandLine();
    assertListed("rekey", rekey);
    for (var e : rekey.getSubcommands().entrySet()) {
      assertListed(e.getKey(), e.getValue());
      for (var sub : e.getValue().getSubcommands().entrySet()) {
        assertListed(e.getKey() + " " + sub.getKey(), sub.getValue());
      }
    }
  }

  private static void assertListed(String name, CommandLine cl) {
    StringWriter out = new StringWriter();
    cl.usage(new PrintWriter(out));
    String help = out.toString();
    assertTrue(help.contains("Exit codes:"), name + "'s help has no exit codes:\n" + help);
    for (String line :
        new String[] {
          "  0   success",
          "  2   usage error or bad input",
          "  3   a difference found",
          "  4   refused to protect data"
        }) {
      assertTrue(help.contains(line), name + "'s help lacks '" + line + "':\n" + help);
    }
  }
}

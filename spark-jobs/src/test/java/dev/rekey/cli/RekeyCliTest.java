package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The CLI's surface, in-process: help, per-command help, usage errors exit 2. */
@Tag("unit")
class RekeyCliTest {
  private record Run(int code, String out, String err) {
  }

  private static Run run(String... args) {
    CommandLine cl = Rekey.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void helpListsEveryCommand() {
    Run r = run("--help");
    assertEquals(0, r.code());
    for (String name : Rekey.commandLine().getSubcommands().keySet()) {
      assertTrue(r.out().contains(name), "--help lists " + name + ":\n" + r.out());
    }
  }

  @Test
  void everyCommandHasHelp() {
    for (var e : Rekey.commandLine().getSubcommands().entrySet()) {
      if (e.getKey().equals("help")) {
        continue;
      }
      Run r = run(e.getKey(), "--help");
      assertEquals(0, r.code(), e.getKey() + " --help");
      assertTrue(r.out().contains("Usage: rekey " + e.getKey()), r.out());
    }
  }

  @Test
  void unknownOptionIsAUsageError() {
    Run r = run("demo", "--no-such-option");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("Unknown option: '--no-such-option'"), r.err());
  }

  @Test
  void unknownCommandIsAUsageError() {
    Run r = run("frobnicate");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("frobnicate"), r.err());
  }

  @Test
  void badValueNamesTheOption() {
    Run r = run("demo", "--rows", "many");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("--rows"), r.err());
  }

  @Test
  void hbaseActionIsChecked() {
    Run r = run("hbase", "restart");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("start, stop, status"), r.err());
  }
}

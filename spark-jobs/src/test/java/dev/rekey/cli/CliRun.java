package dev.rekey.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * The CLI run in-process: its exit code and what it printed (the tests of commands that need no
 * cluster).
 */
record CliRun(int code, String out, String err) {
  static CliRun of(String... args) {
    CommandLine cl = Rekey.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }
}

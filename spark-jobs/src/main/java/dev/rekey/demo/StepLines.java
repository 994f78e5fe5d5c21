package dev.rekey.demo;

import java.io.PrintStream;

/** A cluster story's output: numbered step headings and the lines under them, indented. */
final class StepLines {
  private final PrintStream out;
  private int stepNo;

  StepLines(PrintStream out) {
    this.out = out;
  }

  void step(String title) {
    out.println();
    out.println("== " + (++stepNo) + ". " + title);
  }

  void indent(String line) {
    out.println("  " + line);
  }

  /**
   * A submission's time and, when it did not end as the story expects ({@code expectedExit}, and a
   * cluster-mode driver FINISHED), the line that says so: 1 then, else 0.
   */
  int report(ClusterSubmit.Outcome o, int expectedExit) {
    out.printf(
        "  (spark-submit: %.1f s from submission to exit, exit %d)%n", o.seconds(), o.exitCode());
    if (o.exitCode() == expectedExit
        && (o.driverState() == null || o.driverState().equals("FINISHED"))) {
      return 0;
    }
    out.println(
        "  FAILED (exit "
            + o.exitCode()
            + (o.driverState() != null ? ", driver " + o.driverState() : "")
            + ", expected "
            + expectedExit
            + "): see "
            + o.log());
    return 1;
  }
}

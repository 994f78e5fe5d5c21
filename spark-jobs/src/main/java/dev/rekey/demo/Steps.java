package dev.rekey.demo;

import java.io.PrintStream;

/** A story's numbered step headings: a blank line, then {@code == n. title}. */
final class Steps {
  private final PrintStream out;
  private int stepNo;

  Steps(PrintStream out) {
    this.out = out;
  }

  /** The next heading, its title {@link String#format formatted} from {@code title} and args. */
  void next(String title, Object... args) {
    out.println();
    out.println("== " + (++stepNo) + ". " + String.format(title, args));
  }
}

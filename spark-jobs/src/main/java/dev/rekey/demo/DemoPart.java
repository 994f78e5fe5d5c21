package dev.rekey.demo;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * A part of {@link Demo}'s story: where it prints, the story's numbered step headings, and the run
 * directory its outputs go next to.
 */
abstract class DemoPart {
  protected final PrintStream out;
  protected final Steps steps;
  protected final Path runDir;

  DemoPart(PrintStream out, Steps steps, Path runDir) {
    this.out = out;
    this.steps = steps;
    this.runDir = runDir;
  }
}

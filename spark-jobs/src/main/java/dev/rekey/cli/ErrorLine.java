package dev.rekey.cli;

import dev.rekey.common.RekeyException;

/**
 * The one line the CLI prints for a failure. A RekeyException's message already says what and why.
 * Anything else is usually a wrapper whose message hides the cause (Spark's "Job aborted." over a
 * task's "No space left on device", with the task's stack trace inside the message): its first
 * line, then the innermost cause's, so the last line a user sees names the cause.
 */
final class ErrorLine {
  private ErrorLine() {}

  static String of(Throwable t, boolean verbose) {
    if (t instanceof RekeyException) {
      return "Error: " + t.getMessage();
    }
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String m = firstLine(t.getMessage());
    String line = "Error: " + (m.isEmpty() ? t.getClass().getName() : m);
    String cause = firstLine(root.getMessage());
    if (root != t && !cause.isEmpty() && !line.contains(cause)) {
      line +=
          String.format(
              " (cause: %s: %s%s",
              root.getClass().getSimpleName(),
              cause,
              verbose ? ")" : "; run with --verbose for the stack trace)");
    } else if (!verbose) {
      line += " (run with --verbose for the stack trace)";
    }
    return line;
  }

  private static String firstLine(String message) {
    return message == null ? "" : message.strip().lines().findFirst().orElse("").strip();
  }
}

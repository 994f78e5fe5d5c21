package dev.rekey.common;

import java.util.Arrays;
import java.util.IllegalFormatException;

/**
 * A failure the user can act on: the message says what was wrong, where, and what to do next. The
 * CLI prints the message (no stack trace unless --verbose) and exits with {@link #exitCode()}.
 *
 * <p>Messages are one formatted line, as Iceberg's {@code checkArgument} builds them: {@code
 * RekeyException.cannot("Cannot backfill %s: snapshot %s does not exist (%s)", table, snapshot,
 * next)} — the format shows the message's shape, the arguments what fills it.
 */
public class RekeyException extends RuntimeException {
  private final int exitCode;

  public RekeyException(String message) {
    this(message, ExitCodes.FAILURE, null);
  }

  public RekeyException(String message, Throwable cause) {
    this(message, ExitCodes.FAILURE, cause);
  }

  public RekeyException(String message, int exitCode, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  /** Bad input from the user (exit 2). */
  public static RekeyException usage(String message) {
    return new RekeyException(message, ExitCodes.USAGE, null);
  }

  /** Bad input from the user (exit 2), the message formatted as {@link #cannot}'s. */
  public static RekeyException usage(String format, Object... args) {
    return new RekeyException(format(format, args), ExitCodes.USAGE, null);
  }

  /**
   * A refusal that protects data (exit 4, {@link ExitCodes#REFUSED}), the message formatted as
   * {@link #cannot}'s: what was refused, why, and the option or step that goes on.
   */
  public static RekeyException refused(String format, Object... args) {
    return new RekeyException(format(format, args), ExitCodes.REFUSED, null);
  }

  /** A failure (exit 1) whose message is {@code format} with {@code args}, as String.format. */
  public static RekeyException cannot(String format, Object... args) {
    return new RekeyException(format(format, args), ExitCodes.FAILURE, null);
  }

  /** As {@link #cannot(String, Object...)}, caused by {@code cause}. */
  public static RekeyException cannot(Throwable cause, String format, Object... args) {
    return new RekeyException(format(format, args), ExitCodes.FAILURE, cause);
  }

  /**
   * {@code format} with {@code args}; a format that does not fit its arguments still gives the
   * message's words and every argument, never a second exception in place of the first.
   */
  private static String format(String format, Object... args) {
    try {
      return String.format(format, args);
    } catch (IllegalFormatException e) {
      return format + " " + Arrays.toString(args);
    }
  }

  public int exitCode() {
    return exitCode;
  }

  /**
   * A failure as one line: its message's first line, and its innermost cause's when that says more
   * (the RPC layer's "Failed after attempts=N, exceptions:" hides the server's reason on the lines
   * after it).
   */
  public static String oneLine(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String line = firstLine(e.getMessage());
    String cause = firstLine(root.getMessage());
    if (line.isEmpty()) {
      line = e.getClass().getSimpleName();
    }
    if (root != e && !cause.isEmpty() && !line.contains(cause)) {
      line += " (cause: " + root.getClass().getSimpleName() + ": " + cause + ")";
    }
    return line;
  }

  private static String firstLine(String message) {
    return message == null ? "" : message.strip().lines().findFirst().orElse("").strip();
  }
}

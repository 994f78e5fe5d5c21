package dev.rekey.jobs.common;

/**
 * A failure the user can act on: the message says what was wrong, where, and what to do next. The
 * CLI prints the message (no stack trace unless --verbose) and exits with {@link #exitCode()}.
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

  public int exitCode() {
    return exitCode;
  }
}

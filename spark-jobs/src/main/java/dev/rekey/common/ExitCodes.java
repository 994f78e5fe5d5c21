package dev.rekey.common;

/** Exit codes of every rekey command (docs/reliability.md). */
public final class ExitCodes {
  public static final int OK = 0;
  public static final int FAILURE = 1;
  public static final int USAGE = 2;

  /** reconcile / verify found a mismatch; check-config found a violation. */
  public static final int MISMATCH = 3;

  private ExitCodes() {}
}

package dev.rekey.common;

/**
 * Exit codes of every rekey command, one contract for all (README "Exit codes",
 * docs/reliability.md): a scheduler can tell a failure worth retrying (1) from input to fix (2), a
 * difference found (3) and a refusal that protected data (4), which a retry would only repeat.
 */
public final class ExitCodes {
  public static final int OK = 0;

  /** Something failed (a server, a file, a task); retrying may help. */
  public static final int FAILURE = 1;

  /** Bad options or input: nothing was done; fix the command line or the file it names. */
  public static final int USAGE = 2;

  /** reconcile / verify found a mismatch; check-config found a violation. */
  public static final int MISMATCH = 3;

  /**
   * The command refused to go on to protect data: a second load of the same snapshot, a lock
   * another run holds, an unfinished run to resume first, delete markers that would hide repaired
   * cells, another demo on the same server. The message names the choice to make.
   */
  public static final int REFUSED = 4;

  private ExitCodes() {}
}

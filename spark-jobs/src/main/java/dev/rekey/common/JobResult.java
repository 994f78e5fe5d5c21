package dev.rekey.common;

/**
 * What a job did, immutable, rendering itself: {@link #console()} for the terminal and {@link
 * #toJson()} for machines (the HTML report, where a job writes one, is built from the same result).
 */
public interface JobResult {
  /** {@link ExitCodes#OK}, or {@link ExitCodes#MISMATCH} when the job found a difference. */
  default int exitCode() {
    return ExitCodes.OK;
  }

  /** The result as the CLI prints it: lines ending in a newline. */
  String console();

  /** The result as JSON (the summary file the job writes, where it writes one). */
  String toJson();
}

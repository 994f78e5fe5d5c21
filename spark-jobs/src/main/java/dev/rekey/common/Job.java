package dev.rekey.common;

import java.util.function.Consumer;

/**
 * One rekey job: built from its validated options (and the SparkSession / HBase configuration it
 * needs), run once by {@link #execute}. The CLI, the demo, the tests and the benchmarks all call
 * this same method, so what a test checks is what a user runs.
 *
 * @param <R> the job's immutable result
 */
public interface Job<R extends JobResult> {
  /**
   * Runs the job. Bad input fails with a usage {@link RekeyException} (exit 2) before any data
   * moves; a mismatch the job finds is not an exception but a result whose {@link
   * JobResult#exitCode()} is {@link ExitCodes#MISMATCH}.
   *
   * @param progress where the job reports what it is doing, one line at a time (the CLI prints
   *     them; tests usually drop them)
   */
  R execute(Consumer<String> progress);

  /** Runs the job without progress lines. */
  default R execute() {
    return execute(line -> {});
  }
}

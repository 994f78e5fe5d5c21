package dev.rekey.cli;

import dev.rekey.common.ExitCodes;
import dev.rekey.embedded.EmbeddedHBaseException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Parameters;

/**
 * The shape of the commands that run local daemons (hbase, spark-cluster, cluster): one argument,
 * start|stop|status, and a start that fails with the launcher's reason on one line, exit 1.
 */
abstract class DaemonCommand implements Callable<Integer> {
  enum Action {
    start,
    stop,
    status
  }

  @Parameters(
      index = "0",
      paramLabel = "start|stop|status",
      description = "What to do: ${COMPLETION-CANDIDATES}.")
  Action action;

  @Override
  public final Integer call() {
    return switch (action) {
      case start -> {
        try {
          yield start();
        } catch (EmbeddedHBaseException e) {
          System.err.println("Error: " + e.getMessage());
          yield ExitCodes.FAILURE;
        }
      }
      case stop -> stop();
      case status -> status();
    };
  }

  /** Starts the daemons unless they run; the exit code. */
  abstract int start();

  /** Stops them (a no-op when stopped); the exit code. */
  abstract int stop();

  /** Says whether they run, and where; 0 when they do. */
  abstract int status();
}

package dev.rekey.embedded;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waiting for a server process to exit, shared by the embedded server and the cluster. */
final class Processes {
  private Processes() {}

  /** Whether {@code p} exited within {@code timeout} (an interrupted wait asks the process). */
  static boolean waitFor(ProcessHandle p, Duration timeout) {
    try {
      p.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (Exception e) {
      return !p.isAlive();
    }
  }
}

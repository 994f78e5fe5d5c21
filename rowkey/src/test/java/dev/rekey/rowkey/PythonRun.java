package dev.rekey.rowkey;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One process of the Python tests, run to its end in {@code dir}: its exit code and its output
 * (stdout and stderr together), read while it runs, since a process that fills the pipe buffer
 * would otherwise block forever.
 */
record PythonRun(List<String> command, int exitCode, String output) {
  static PythonRun of(Path dir, Duration timeout, String... command) throws Exception {
    Process p =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    CompletableFuture<String> output =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " did not finish in " + timeout);
    }
    return new PythonRun(List.of(command), p.exitValue(), output.get(10, TimeUnit.SECONDS));
  }

  /** The command and what it printed, for an assertion's message. */
  String describe() {
    return String.join(" ", command) + " exited " + exitCode + ":\n" + output;
  }
}

package dev.rekey.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs {@code bin/rekey} as a user would, against the test run's embedded HBase. */
public final class RekeyProcess {
  private RekeyProcess() {}

  public record Result(int exitCode, String stdout, String stderr) {
    public String all() {
      return stdout + "\n" + stderr;
    }
  }

  public static ProcessBuilder builder(String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(SharedHBase.rekeyHome().resolve("bin/rekey").toString());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(SharedHBase.rekeyHome().toFile());
    pb.environment().put("REKEY_RUN_DIR", SharedHBase.runRoot().toString());
    pb.environment().put("REKEY_DRIVER_MEMORY", "2g");
    return pb;
  }

  public static Result run(long timeoutSeconds, String... args)
      throws IOException, InterruptedException {
    return run(builder(args), timeoutSeconds);
  }

  /** Runs a {@link #builder} (e.g. with more environment) and collects its output. */
  public static Result run(ProcessBuilder pb, long timeoutSeconds)
      throws IOException, InterruptedException {
    return start(pb).await(timeoutSeconds);
  }

  /**
   * Starts a {@link #builder} in the background: its output is read while it runs or at its end.
   */
  public static Running start(ProcessBuilder pb) throws IOException {
    Path out = Files.createTempFile("rekey-out", ".txt");
    Path err = Files.createTempFile("rekey-err", ".txt");
    Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    return new Running(String.join(" ", pb.command()), p, out, err);
  }

  /** A {@code bin/rekey} started by {@link #start}. */
  public static final class Running {
    private final String command;
    private final Process process;
    private final Path out;
    private final Path err;

    private Running(String command, Process process, Path out, Path err) {
      this.command = command;
      this.process = process;
      this.out = out;
      this.err = err;
    }

    public Process process() {
      return process;
    }

    /** What it printed to stdout so far. */
    public String stdoutSoFar() {
      try {
        return Files.readString(out, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    /** Waits for its end and collects its output; killed and failed past the timeout. */
    public Result await(long timeoutSeconds) throws IOException, InterruptedException {
      if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(
            command
                + " did not finish in "
                + timeoutSeconds
                + " s; output so far:\n"
                + Files.readString(out)
                + Files.readString(err));
      }
      Result r =
          new Result(
              process.exitValue(),
              Files.readString(out, StandardCharsets.UTF_8),
              Files.readString(err, StandardCharsets.UTF_8));
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
      return r;
    }
  }
}

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
    Path out = Files.createTempFile("rekey-out", ".txt");
    Path err = Files.createTempFile("rekey-err", ".txt");
    Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(
          String.join(" ", pb.command())
              + " did not finish in "
              + timeoutSeconds
              + " s; output so far:\n"
              + Files.readString(out)
              + Files.readString(err));
    }
    Result r =
        new Result(
            p.exitValue(),
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
    Files.deleteIfExists(out);
    Files.deleteIfExists(err);
    return r;
  }
}

package dev.rekey.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rekey.common.Poll;
import dev.rekey.embedded.EmbeddedHBase;
import dev.rekey.testing.RekeyProcess;
import dev.rekey.testing.SharedHBase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The embedded server SIGKILLed under a running command: the command says so in one line and exits
 * 1 within seconds, instead of minutes of client retries with row dumps and stack traces. A server
 * of its own in a fresh run directory, not the shared one.
 */
@Tag("e2e")
class ServerLostIT {
  @Test
  void aDemoWhoseServerIsKilledEndsAtOnceWithOneLineNamingItAndTheRestart() throws Exception {
    Path root = Files.createTempDirectory(Files.createDirectories(SharedHBase.runRoot()), "lost-");
    EmbeddedHBase hbase = new EmbeddedHBase(root.resolve("hbase"), System.out::println);
    hbase.start(Duration.ofSeconds(180));
    ProcessHandle server = hbase.runningProcess().orElseThrow();
    Path out = root.resolve("demo.out");
    Path err = root.resolve("demo.err");
    ProcessBuilder pb = RekeyProcess.builder("demo", "--rows", "200000");
    pb.environment().put("REKEY_RUN_DIR", root.toString());
    Process demo = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    try {
      // mid-write: the demo's client has rows in flight when the server goes
      Poll.until(
          () -> Files.readString(out).contains("wrote "),
          Duration.ofSeconds(300),
          Duration.ofMillis(200),
          () ->
              new IllegalStateException(
                  "the demo did not start writing: " + read(out) + read(err)));
      server.destroyForcibly();
      long t0 = System.nanoTime();
      assertTrue(demo.waitFor(120, TimeUnit.SECONDS), "still running:\n" + read(out) + read(err));
      double seconds = (System.nanoTime() - t0) / 1e9;
      String stderr = read(err);
      assertEquals(1, demo.exitValue(), stderr);
      assertTrue(seconds < 40, "ended " + seconds + " s after the kill:\n" + stderr);
      List<String> lines = stderr.strip().lines().toList();
      assertEquals(
          ServerWatch.line("demo", server.pid(), hbase.runDir(), hbase.logFile(), hbase.runDir()),
          lines.get(lines.size() - 1),
          stderr);
      assertTrue(
          lines.stream().noneMatch(l -> l.contains("\"row\":") || l.contains("totalColumns")),
          "no row dumps:\n" + stderr);
      assertTrue(
          lines.stream().filter(l -> l.startsWith("\tat ")).count() <= 3,
          "no stack traces:\n" + stderr);
    } finally {
      demo.destroyForcibly();
      hbase.stop(Duration.ofSeconds(30));
    }
  }

  private static String read(Path f) {
    try {
      return Files.readString(f, StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}

package dev.rekey.embedded;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * What the three launchers (the embedded server, the local Spark cluster, the pseudo-distributed
 * cluster) do alike with their daemons: one start or stop at a time per run directory, a daemon
 * started in its own session with its output in a file and its pid in another, the live process of
 * a pid file (a recycled pid of another program does not count), stop-then-kill, and a lock held
 * for a whole run that names its holder.
 */
final class Daemons {
  private Daemons() {}

  /** A step that may fail with an IOException. */
  interface IoStep<T> {
    T run() throws IOException;
  }

  /**
   * Runs {@code step} holding the run directory's lock ({@code dir/.lock}): two starts, or a start
   * and a stop, of the same directory never interleave, whichever processes run them.
   */
  static <T> T locked(Path dir, IoStep<T> step) throws IOException {
    Files.createDirectories(dir);
    try (FileChannel ch =
            FileChannel.open(
                dir.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock ignored = ch.lock()) {
      return step.run();
    }
  }

  /**
   * Takes {@code file}'s lock for as long as the returned channel stays open, and writes this
   * process's pid and start time into it ({@code pid instant}); null when another process (or
   * another channel of this one) holds it. An OS file lock: the OS releases it whenever the process
   * ends, kill -9 included, so a killed run never leaves it taken.
   */
  static FileChannel tryHold(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    FileChannel ch =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
    try {
      if (ch.tryLock() == null) {
        ch.close();
        return null;
      }
    } catch (OverlappingFileLockException e) {
      ch.close();
      return null;
    }
    String holder = ProcessHandle.current().pid() + " " + Instant.now() + "\n";
    ch.truncate(0);
    ch.write(ByteBuffer.wrap(holder.getBytes(StandardCharsets.UTF_8)), 0);
    ch.force(false);
    return ch;
  }

  /**
   * What a held lock file says of its holder ({@code pid instant}, as {@link #tryHold} writes it);
   * "" if it says nothing yet (its holder has just taken it) or cannot be read.
   */
  static String holder(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * Starts {@code command} as a daemon: in its own session where setsid exists (it outlives the
   * command that started it and ignores its Ctrl-C), stdin from /dev/null, stdout and stderr to
   * {@code output} (started anew: a launcher that waits for a line there must not find the last
   * run's), its pid written to {@code pidFile}.
   *
   * @param env added to the inherited environment
   */
  static Process launch(List<String> command, Path output, Path pidFile, Map<String, String> env)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
      cmd.add("/usr/bin/setsid");
    }
    cmd.addAll(command);
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment().putAll(env);
    Process p = pb.start();
    Files.createDirectories(pidFile.getParent());
    Files.writeString(pidFile, Long.toString(p.pid()));
    return p;
  }

  /**
   * The live process a pid file names, if its command line is one of ours ({@code ours}): a pid
   * recycled by another program after a crash is not taken for the daemon.
   */
  static Optional<ProcessHandle> live(Path pidFile, Predicate<String> ours) {
    try {
      if (!Files.exists(pidFile)) {
        return Optional.empty();
      }
      long pid = Long.parseLong(Files.readString(pidFile).trim());
      return ProcessHandle.of(pid)
          .filter(ProcessHandle::isAlive)
          .filter(p -> ours.test(commandLine(p)));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** A process's full command line (from /proc on Linux, space-separated). */
  static String commandLine(ProcessHandle p) {
    Path cmdline = Path.of("/proc", Long.toString(p.pid()), "cmdline");
    try {
      return Files.exists(cmdline)
          ? new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8).replace('\0', ' ')
          : p.info().commandLine().orElse("");
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * Stops a daemon: SIGTERM, then SIGKILL if it has not exited within {@code grace} (said through
   * {@code out}, naming it).
   */
  static void terminate(ProcessHandle p, Duration grace, String name, Consumer<String> out) {
    p.destroy();
    kill(p, grace, name + " did not stop within " + grace.toSeconds() + " s of SIGTERM", out);
  }

  /** SIGKILL unless {@code p} exits within {@code grace}; {@code why} is said first. */
  static void kill(ProcessHandle p, Duration grace, String why, Consumer<String> out) {
    if (!waitFor(p, grace)) {
      out.accept(why + "; sending SIGKILL");
      p.destroyForcibly();
      waitFor(p, Duration.ofSeconds(10));
    }
  }

  /** The last lines of a daemon's logs, for a message that says why it did not start. */
  static String tail(Path... files) {
    List<String> lines = new ArrayList<>();
    for (Path f : files) {
      try {
        if (Files.exists(f)) {
          List<String> all = Files.readAllLines(f, StandardCharsets.ISO_8859_1);
          lines.addAll(all.subList(Math.max(0, all.size() - 15), all.size()));
        }
      } catch (IOException e) {
        // best effort: the message names the log
      }
    }
    return lines.isEmpty() ? "(no log)" : String.join("\n", lines);
  }

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

  /** {@code n} distinct free loopback ports. */
  static int[] freePorts(int n) throws IOException {
    // Hold all sockets open until every port is chosen, so the n ports are distinct.
    List<java.net.ServerSocket> sockets = new ArrayList<>();
    try {
      int[] ports = new int[n];
      for (int i = 0; i < n; i++) {
        java.net.ServerSocket s =
            new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
        s.setReuseAddress(true);
        sockets.add(s);
        ports[i] = s.getLocalPort();
      }
      return ports;
    } finally {
      for (java.net.ServerSocket s : sockets) {
        s.close();
      }
    }
  }

  /** Deletes {@code dir} and everything under it; nothing if it is absent. */
  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }
}

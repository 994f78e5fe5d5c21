package dev.rekey.embedded;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Starts daemons in order, on one host or several: each once the daemons it needs are ready,
 * watching its log for its ready line; returns when all are ready. What the single-host cluster
 * ({@link ClusterLauncher}) and the several-host stack ({@link HostLauncher}) share, start and
 * restart alike.
 */
final class StartOrder {
  /** Launches one daemon: its process. */
  interface Launch {
    Process start() throws IOException;
  }

  /**
   * One daemon to start: its role, where it runs ("" on the single host, " on worker1"), the roles
   * it needs ready first, its log and ready line, the file its stdout goes to, and its launch.
   */
  record Step(
      String role,
      String where,
      List<String> after,
      Path log,
      String readyLine,
      Path stdout,
      Launch launch) {}

  private StartOrder() {}

  /**
   * Starts {@code steps}, each once the roles in its {@code after} are ready (a role not among the
   * steps counts as ready: a restart of one daemon); {@code what} names the whole in messages ("the
   * cluster"), {@code logs} where to look when one is late.
   */
  static void run(
      List<Step> steps,
      Duration timeout,
      String what,
      Path logs,
      java.util.function.Consumer<String> out)
      throws IOException {
    Set<String> roles = new LinkedHashSet<>();
    steps.forEach(s -> roles.add(s.role()));
    Map<String, Process> launched = new HashMap<>();
    Map<String, LogWatch> watches = new HashMap<>();
    Set<String> ready = new LinkedHashSet<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (ready.size() < steps.size()) {
      for (Step s : steps) {
        boolean needsMet =
            s.after().stream().allMatch(r -> ready.contains(r) || !roles.contains(r));
        if (!launched.containsKey(s.role()) && needsMet) {
          launched.put(s.role(), s.launch().start());
          watches.put(s.role(), new LogWatch(s.log(), s.readyLine()));
        }
      }
      for (Step s : steps) {
        Process p = launched.get(s.role());
        if (p == null || ready.contains(s.role())) {
          continue;
        }
        if (watches.get(s.role()).seen()) {
          ready.add(s.role());
          out.accept(String.format("  %-16s ready%s (pid %d)", s.role(), s.where(), p.pid()));
        } else if (!p.isAlive()) {
          throw new EmbeddedHBaseException(
              String.format(
                  "Cannot start %s: %s%s exited during start-up (exit %s); see %s:\n%s",
                  what,
                  s.role(),
                  s.where(),
                  p.exitValue(),
                  s.log(),
                  Daemons.tail(s.log(), s.stdout())));
        }
      }
      if (System.nanoTime() > deadline) {
        throw new EmbeddedHBaseException(
            String.format(
                "Cannot start %s: %s not ready within %s s (see their logs under %s)",
                what,
                steps.stream().map(Step::role).filter(r -> !ready.contains(r)).toList(),
                timeout.toSeconds(),
                logs));
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new EmbeddedHBaseException("Interrupted while starting " + what);
      }
    }
  }
}

package dev.rekey.embedded;

import dev.rekey.embedded.HostPlan.Host;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The network of a several-host stack: one network namespace per host, each with a veth whose other
 * end is on the stack's own bridge. The bridge has no address and there is no route out of a
 * namespace (no default route, no NAT): the hosts reach each other and nothing else.
 */
final class HostNetwork {
  private final HostPlan plan;
  private final Consumer<String> out;

  HostNetwork(HostPlan plan, Consumer<String> out) {
    this.plan = plan;
    this.out = out;
  }

  /** Whether this process may make namespaces: root, and {@code ip netns add} works. */
  static boolean permitted() {
    if (!"root".equals(System.getProperty("user.name"))) {
      return false;
    }
    String probe = "rekey-probe-" + ProcessHandle.current().pid();
    boolean ok = ip("netns", "add", probe).ok();
    ip("netns", "del", probe);
    return ok;
  }

  /** Makes the bridge, the namespaces and their links; on any failure removes what it made. */
  void up() {
    down();
    try {
      run("link", "add", plan.bridge(), "type", "bridge");
      run("link", "set", plan.bridge(), "up");
      for (Host h : plan.hosts()) {
        String peer = h.veth() + "p";
        run("netns", "add", h.netns());
        run("link", "add", h.veth(), "type", "veth", "peer", "name", peer);
        run("link", "set", peer, "netns", h.netns());
        run("-n", h.netns(), "link", "set", peer, "name", "eth0");
        run("-n", h.netns(), "addr", "add", h.address() + "/24", "dev", "eth0");
        run("-n", h.netns(), "link", "set", "eth0", "up");
        run("-n", h.netns(), "link", "set", "lo", "up");
        run("link", "set", h.veth(), "master", plan.bridge());
        run("link", "set", h.veth(), "up");
      }
    } catch (RuntimeException e) {
      down();
      throw e;
    }
    out.accept(
        String.format(
            "Network up: bridge %s, %d hosts on %s",
            plan.bridge(), plan.hosts().size(), plan.cidr()));
  }

  /**
   * Removes every namespace, veth and the bridge of this stack (what is absent is skipped), after
   * killing whatever still runs in a namespace (a container, an executor, a command of {@code
   * cluster run}): a namespace with a process left would outlive its name.
   */
  void down() {
    for (Host h : plan.hosts()) {
      Result pids = ip("netns", "pids", h.netns());
      if (pids.ok()) {
        for (String pid : pids.out().split("\\s+")) {
          if (!pid.isBlank()) {
            ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
          }
        }
      }
      ip("link", "del", h.veth());
      if (ip("netns", "del", h.netns()).ok()) {
        out.accept("Removed namespace " + h.netns());
      }
    }
    ip("link", "del", plan.bridge());
  }

  /** Whether anything of this stack's network is left (for tests and status). */
  List<String> leftovers() {
    List<String> left = new ArrayList<>();
    String netns = ip("netns", "list").out();
    String links = ip("-o", "link").out();
    for (Host h : plan.hosts()) {
      if (netns.contains(h.netns())) {
        left.add("namespace " + h.netns());
      }
      if (links.contains(h.veth() + "@") || links.contains(h.veth() + ":")) {
        left.add("link " + h.veth());
      }
    }
    if (links.contains(plan.bridge() + ":")) {
      left.add("bridge " + plan.bridge());
    }
    return left;
  }

  private static void run(String... args) {
    Result r = ip(args);
    if (!r.ok()) {
      throw new EmbeddedHBaseException(
          "Cannot make the hosts' network: ip " + String.join(" ", args) + " failed: " + r.out());
    }
  }

  record Result(boolean ok, String out) {}

  static Result ip(String... args) {
    List<String> cmd = new ArrayList<>(List.of("ip"));
    cmd.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Result(false, "timed out");
      }
      return new Result(p.exitValue() == 0, text);
    } catch (IOException e) {
      return new Result(false, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(false, "interrupted");
    }
  }
}

package dev.rekey.common;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;

/**
 * Who runs a job, as one line ({@code host pid startedAt}), and whether such a line names a process
 * that is gone: what lets a run tell a killed run's leftovers from those of a run still going. Only
 * a process on this host can be known to be gone; one on another host is never assumed dead.
 */
public final class RunOwner {
  private RunOwner() {}

  /** This process: {@code host pid startedAt}. */
  public static String line() {
    return host() + " " + ProcessHandle.current().pid() + " " + Instant.now();
  }

  /**
   * True if {@code owner} names this host and a process id that does not run here (not this one).
   */
  public static boolean deadOnThisHost(String owner) {
    String[] parts = owner.trim().split(" ");
    if (parts.length < 2 || !parts[0].equals(host())) {
      return false;
    }
    try {
      long pid = Long.parseLong(parts[1]);
      return pid != ProcessHandle.current().pid()
          && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown-host";
    }
  }
}

package dev.rekey.admin.replicate;

import dev.rekey.replication.ReplicationSettings;
import java.time.Instant;
import java.util.List;

/**
 * One rekey replication peer as {@code rekey replicate status} shows it: its state, what it
 * replicates, the quarantine counter, and per RegionServer (per replication queue) HBase's own
 * {@code ReplicationLoadSource}: edits read and shipped, the lag, the age of the last shipped edit.
 */
public record ReplicationStatus(
    String peerId,
    boolean enabled,
    ReplicationSettings settings,
    List<Server> servers,
    long quarantined) {

  /** One replication queue of one RegionServer. */
  public record Server(
      String server,
      String queue,
      long editsRead,
      long editsShipped,
      long lagMs,
      long ageOfLastShippedMs,
      long lastShippedAt,
      long walQueueSize) {}

  /** The largest lag over every queue (0 when none reports yet). */
  public long maxLagMs() {
    return servers.stream().mapToLong(Server::lagMs).max().orElse(0);
  }

  public long editsShipped() {
    return servers.stream().mapToLong(Server::editsShipped).sum();
  }

  public String console() {
    StringBuilder b =
        new StringBuilder(
            String.format(
                "peer %s (%s): %s -> %s, quarantine %s: %,d edit(s)%n",
                peerId,
                enabled ? "enabled" : "disabled",
                settings.sourceTable(),
                settings.targets().stream().map(ReplicationSettings.Target::table).toList(),
                settings.quarantineTable(),
                quarantined));
    if (servers.isEmpty()) {
      b.append("  no RegionServer reports this peer yet (reports come every few seconds)\n");
    }
    for (Server s : servers) {
      b.append(
          String.format(
              "  %s queue %s: %,d edits read, %,d shipped, lag %,d ms, last shipped edit %,d ms old%s,"
                  + " %d WAL(s) queued%n",
              s.server(),
              s.queue(),
              s.editsRead(),
              s.editsShipped(),
              s.lagMs(),
              s.ageOfLastShippedMs(),
              s.lastShippedAt() > 0 ? " (at " + Instant.ofEpochMilli(s.lastShippedAt()) + ")" : "",
              s.walQueueSize()));
    }
    return b.toString().stripTrailing();
  }
}

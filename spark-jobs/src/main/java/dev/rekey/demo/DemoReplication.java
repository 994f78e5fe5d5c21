package dev.rekey.demo;

import dev.rekey.embedded.RekeyHome;
import dev.rekey.jobs.common.Poll;
import dev.rekey.jobs.common.RekeyException;
import dev.rekey.jobs.replicate.ReplicationPeers;
import dev.rekey.jobs.replicate.ReplicationStatus;
import dev.rekey.replication.ReplicationSettings;
import dev.rekey.rowkey.KeyLayout;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;

/**
 * The demo's replication ({@code demo --writers replication}): {@code rekey replicate start} before
 * the snapshot, a wait until the peer has delivered the writer's last edit, {@code replicate stop}
 * at the end. What the CLI's {@code replicate} command does, through the same {@link
 * ReplicationPeers}.
 */
final class DemoReplication {
  static final String SOURCE = DemoTables.TELEMETRY_V1.getNameAsString();
  private static final Duration CATCH_UP = Duration.ofSeconds(180);

  private final ReplicationPeers peers;
  private final PrintStream out;

  DemoReplication(Connection conn, PrintStream out) {
    this.peers = new ReplicationPeers(conn);
    this.out = out;
  }

  /** Removes the peer a run killed before its end left behind (it would refuse the next start). */
  void removeLeftover() throws IOException {
    if (!peers.status(SOURCE).isEmpty()) {
      out.println("  " + peers.stop(SOURCE) + " (left by an earlier run)");
    }
  }

  /** replicate start: telemetry_v1's edits to telemetry_v2 under the new key from here on. */
  void start() throws IOException {
    ReplicationSettings settings =
        new ReplicationSettings(
            SOURCE,
            layoutText("telemetry-v1"),
            List.of(
                new ReplicationSettings.Target(
                    DemoTables.TELEMETRY_V2.getNameAsString(), layoutText("telemetry-v2"))),
            ReplicationSettings.DEFAULT_QUARANTINE_TABLE);
    out.println("  " + peers.start(settings));
  }

  /**
   * Waits until {@code last} (the writer's last reading) is in telemetry_v2 and every queue reports
   * lag 0. One WAL, shipped in order: once its last edit has arrived, every edit before it has.
   */
  void awaitCaughtUp(Connection conn, KeyLayout v2, TelemetryReading last) throws IOException {
    long t0 = System.nanoTime();
    byte[] row = v2.encode(Map.of("ts", last.ts(), "deviceId", last.deviceId()));
    try (Table t = conn.getTable(DemoTables.TELEMETRY_V2)) {
      Poll.until(
          () -> t.exists(new Get(row)) && status().maxLagMs() == 0,
          CATCH_UP,
          Duration.ofMillis(250),
          () ->
              new RekeyException(
                  "Demo: replication did not deliver the writer's last edit to "
                      + DemoTables.TELEMETRY_V2
                      + " within "
                      + CATCH_UP.toSeconds()
                      + " s (see `bin/rekey replicate status` and the server log)"));
    }
    ReplicationStatus s = status();
    out.printf(
        "  replication caught up in %.1f s: the writer's last edit is in %s, lag 0; %,d edits"
            + " shipped, %,d quarantined%n",
        (System.nanoTime() - t0) / 1e9, DemoTables.TELEMETRY_V2, s.editsShipped(), s.quarantined());
  }

  /** replicate stop: the writers have moved to the new table. */
  void stop() throws IOException {
    out.println("  " + peers.stop(SOURCE));
  }

  private ReplicationStatus status() throws IOException {
    List<ReplicationStatus> all = peers.status(SOURCE);
    if (all.isEmpty()) {
      throw new RekeyException("Demo: replication peer of " + SOURCE + " is gone");
    }
    return all.get(0);
  }

  private static String layoutText(String name) throws IOException {
    return Files.readString(RekeyHome.resolve("conf/layouts/" + name + ".yaml"));
  }
}

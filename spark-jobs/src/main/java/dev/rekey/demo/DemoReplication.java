package dev.rekey.demo;

import dev.rekey.admin.replicate.ReplicationPeers;
import dev.rekey.common.Poll;
import dev.rekey.common.RekeyException;
import dev.rekey.home.RekeyHome;
import dev.rekey.replication.ReplicationSettings;
import dev.rekey.rowkey.KeyLayout;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;

/**
 * The migration without dual writes ({@code demo --writers replication}): the writer writes only
 * telemetry_v1, and a rekeying replication peer (rekey replicate start) brings every edit to
 * telemetry_v2 and telemetry_by_device under their keys, from before the snapshot until {@link
 * #close()} removes it (rekey replicate stop).
 */
final class DemoReplication implements Closeable {
  private static final Duration ARRIVAL = Duration.ofSeconds(180);

  private final ReplicationPeers peers;
  private final PrintStream out;

  private DemoReplication(ReplicationPeers peers, PrintStream out) {
    this.peers = peers;
    this.out = out;
  }

  /** Starts the peer (one left by a killed demo is removed first: the demo owns it). */
  static DemoReplication start(Connection conn, PrintStream out) throws IOException {
    ReplicationPeers peers = new ReplicationPeers(conn);
    String source = DemoTables.TELEMETRY_V1.getNameAsString();
    if (!peers.status(source).isEmpty()) {
      out.println("  " + peers.stop(source) + " (left by an earlier run)");
    }
    ReplicationSettings settings =
        new ReplicationSettings(
            source,
            layoutText("telemetry-v1"),
            List.of(
                new ReplicationSettings.Target(
                    DemoTables.TELEMETRY_V2.getNameAsString(), layoutText("telemetry-v2")),
                new ReplicationSettings.Target(
                    DemoTables.TELEMETRY_BY_DEVICE.getNameAsString(),
                    layoutText("telemetry-by-device"))),
            ReplicationSettings.DEFAULT_QUARANTINE_TABLE);
    out.println(
        "  rekey replicate start --source-table telemetry_v1 --source-layout telemetry-v1"
            + " --target-table telemetry_v2 --target-layout telemetry-v2 --target-table"
            + " telemetry_by_device --target-layout telemetry-by-device");
    out.println("  " + peers.start(settings));
    return new DemoReplication(peers, out);
  }

  /**
   * Waits until {@code last}, the writer's last edit, is in both new tables: the peer ships a
   * RegionServer's edits in order, so every earlier edit is there too.
   */
  void awaitArrival(Connection conn, TelemetryReading last, KeyLayout v2, KeyLayout byDevice)
      throws IOException {
    long t0 = System.nanoTime();
    Map<String, Object> fields = Map.of("ts", last.ts(), "deviceId", last.deviceId());
    Poll.until(
        () ->
            present(conn, DemoTables.TELEMETRY_V2, v2.encode(fields))
                && present(conn, DemoTables.TELEMETRY_BY_DEVICE, byDevice.encode(fields)),
        ARRIVAL,
        Duration.ofMillis(200),
        () ->
            RekeyException.cannot(
                "Demo: the writer's last edit did not reach the new tables through replication"
                    + " within %d s (see `bin/rekey replicate status`)",
                ARRIVAL.toSeconds()));
    out.printf(
        "  the writer's last edit reached both new tables through replication %.1f s after its"
            + " flush%n",
        (System.nanoTime() - t0) / 1e9);
  }

  private static boolean present(Connection conn, TableName table, byte[] row) throws IOException {
    try (Table t = conn.getTable(table)) {
      return t.exists(new Get(row));
    }
  }

  private static String layoutText(String name) {
    try {
      return Files.readString(RekeyHome.resolve("conf/layouts/" + name + ".yaml"));
    } catch (IOException e) {
      throw RekeyException.cannot(e, "Demo: cannot read layout %s: %s", name, e.getMessage());
    }
  }

  /** rekey replicate stop: the peer and the scope it set are removed. */
  @Override
  public void close() throws IOException {
    out.println("  " + peers.stop(DemoTables.TELEMETRY_V1.getNameAsString()));
  }
}

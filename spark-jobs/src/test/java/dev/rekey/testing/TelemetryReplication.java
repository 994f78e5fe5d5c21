package dev.rekey.testing;

import dev.rekey.replication.ReplicationSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;

/** The replication peers the tests start: telemetry-v1 keys rekeyed into a telemetry-v2 table. */
public final class TelemetryReplication {
  private TelemetryReplication() {}

  /**
   * The settings of a peer replicating {@code source} into {@code target}, quarantining into {@code
   * quarantine}; {@code targetCluster}: the target's cluster ({@link
   * ReplicationSettings#clusterOf}), empty for the source's own.
   */
  public static ReplicationSettings settings(
      TableName source, TableName target, TableName quarantine, Map<String, String> targetCluster) {
    try {
      return new ReplicationSettings(
          source.getNameAsString(),
          Files.readString(Layouts.file("telemetry-v1")),
          List.of(
              new ReplicationSettings.Target(
                  target.getNameAsString(), Files.readString(Layouts.file("telemetry-v2")))),
          quarantine.getNameAsString(),
          targetCluster);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

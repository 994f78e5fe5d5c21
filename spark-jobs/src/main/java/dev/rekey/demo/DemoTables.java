package dev.rekey.demo;

import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.SnapshotDescription;

/** The tables and snapshots the demo owns: each run drops exactly these, never anything else. */
public final class DemoTables {
  public static final TableName TELEMETRY_V1 = TableName.valueOf("telemetry_v1");
  public static final TableName TELEMETRY_V2 = TableName.valueOf("telemetry_v2");
  public static final TableName TELEMETRY_BY_DEVICE = TableName.valueOf("telemetry_by_device");
  public static final TableName EVENTS_V2 = TableName.valueOf("events_v2");
  public static final String TELEMETRY_V1_SNAPSHOT = "telemetry_v1_snap";

  static final List<TableName> TABLES =
      List.of(TELEMETRY_V1, TELEMETRY_V2, TELEMETRY_BY_DEVICE, EVENTS_V2);
  static final List<String> SNAPSHOTS = List.of(TELEMETRY_V1_SNAPSHOT);

  private DemoTables() {}

  /** Drops the demo's own tables and snapshots left by an earlier (possibly killed) run. */
  public static void dropAll(Admin admin, Consumer<String> out) throws IOException {
    for (SnapshotDescription s : admin.listSnapshots()) {
      if (SNAPSHOTS.contains(s.getName())) {
        admin.deleteSnapshot(s.getName());
        out.accept("  dropped snapshot " + s.getName() + " from an earlier run");
      }
    }
    for (TableName t : TABLES) {
      if (admin.tableExists(t)) {
        if (admin.isTableEnabled(t)) {
          admin.disableTable(t);
        }
        admin.deleteTable(t);
        out.accept("  dropped table " + t + " from an earlier run");
      }
    }
  }
}

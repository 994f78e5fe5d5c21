// Bench helper (not part of rekey): writes the legacy telemetry_v1 table (ts | deviceId, the demo's readings over
// one day, 2026-11-29) through a BufferedMutator, flushes it and snapshots it as telemetry_v1_snap: the demo's first
// step alone, without the rest of its story (dual writes after the snapshot would make the copies below differ).
// Run: java -cp "$JAR:$(cat spark-jobs/target/launch.classpath):$CLIENT_CONF_DIR" LoadLegacy.java ROWS DEVICES
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryGenerator;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

public class LoadLegacy {
  public static void main(String[] a) throws Exception {
    long rows = Long.parseLong(a[0]);
    int devices = Integer.parseInt(a[1]);
    TableName t = TableName.valueOf("telemetry_v1");
    String snap = "telemetry_v1_snap";
    try (Connection conn = ConnectionFactory.createConnection(HBaseConfiguration.create()); Admin admin = conn.getAdmin()) {
      if (admin.listSnapshots().stream().anyMatch(x -> x.getName().equals(snap))) {
        admin.deleteSnapshot(snap);
      }
      if (admin.tableExists(t)) {
        admin.disableTable(t);
        admin.deleteTable(t);
      }
      LegacyTelemetryTable.create(admin, t);
      long t0 = System.nanoTime();
      long n = LegacyTelemetryTable.write(conn, t, TelemetryGenerator.oneDay(rows, devices), s -> {});
      admin.flush(t);
      admin.snapshot(snap, t);
      System.out.printf("%,d readings from %,d devices written into %s in %.1f s, snapshot %s%n", n, devices, t,
          (System.nanoTime() - t0) / 1e9, snap);
    }
  }
}

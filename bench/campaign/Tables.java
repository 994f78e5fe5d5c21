// Bench helper (not part of rekey): legacy telemetry tables for bench/campaign/run.sh, written through a
// BufferedMutator and flushed, each pre-split in REGIONS day slices; and the chores between the bench's rounds.
// Run: java -cp "$JAR:$(cat spark-jobs/target/launch.classpath):$CLIENT_CONF_DIR" Tables.java load PREFIX N ROWS REGIONS
//      ... Tables.java drop TABLE...        (drops the tables and snapshots named, those that exist)
//      ... Tables.java snapshot TABLE SNAP  (flush and snapshot, as `snapshot` in the HBase shell)
import dev.rekey.demo.LegacyTelemetryTable;
import dev.rekey.demo.TelemetryGenerator;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.util.Bytes;

public class Tables {
  public static void main(String[] a) throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(HBaseConfiguration.create());
        Admin admin = conn.getAdmin()) {
      switch (a[0]) {
        case "load" -> {
          int n = Integer.parseInt(a[2]);
          long rows = Long.parseLong(a[3]);
          int regions = Integer.parseInt(a[4]);
          byte[][] splits = new byte[regions - 1][];
          for (int i = 1; i < regions; i++) {
            splits[i - 1] = Bytes.toBytes(TelemetryGenerator.DEFAULT_START + i * 86_400_000L / regions);
          }
          for (int i = 0; i < n; i++) {
            TableName t = TableName.valueOf(a[1] + i);
            drop(admin, t.getNameAsString());
            LegacyTelemetryTable.create(admin, t, splits);
            LegacyTelemetryTable.write(conn, t, TelemetryGenerator.oneDay(rows, 1000), s -> {});
            admin.flush(t);
            System.out.println("loaded " + t + ": " + rows + " readings in " + regions + " regions");
          }
        }
        case "drop" -> {
          for (int i = 1; i < a.length; i++) {
            drop(admin, a[i]);
          }
        }
        case "snapshot" -> admin.snapshot(a[2], TableName.valueOf(a[1]));
        default -> throw new IllegalArgumentException("load|drop|snapshot");
      }
    }
  }

  private static void drop(Admin admin, String name) throws Exception {
    if (admin.listSnapshots().stream().anyMatch(x -> x.getName().equals(name))) {
      admin.deleteSnapshot(name);
    }
    TableName t = TableName.valueOf(name);
    if (admin.tableExists(t)) {
      admin.disableTable(t);
      admin.deleteTable(t);
    }
  }
}

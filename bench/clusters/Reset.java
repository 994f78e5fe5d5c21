import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

// Bench helper (not part of rekey): on the cluster whose client config is on the classpath, deletes snapshot SNAPSHOT
// and the tables named after it, if they exist (a previous round's exported copy and targets).
// Run: java -cp "$JAR:$(cat spark-jobs/target/launch.classpath):$CLIENT_CONF_DIR" Reset.java SNAPSHOT TABLE...
public class Reset {
  public static void main(String[] a) throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(HBaseConfiguration.create());
        Admin admin = conn.getAdmin()) {
      if (admin.listSnapshots().stream().anyMatch(s -> s.getName().equals(a[0]))) {
        admin.deleteSnapshot(a[0]);
        System.out.println("deleted snapshot " + a[0]);
      }
      for (int i = 1; i < a.length; i++) {
        TableName t = TableName.valueOf(a[i]);
        if (admin.tableExists(t)) {
          admin.disableTable(t);
          admin.deleteTable(t);
          System.out.println("dropped table " + t);
        }
      }
    }
  }
}

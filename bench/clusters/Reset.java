import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

// Bench helper (not part of rekey): on the cluster whose client config is on the classpath, deletes snapshot SNAPSHOT
// and the tables named after it, if they exist (a previous round's exported copy and targets), and the archived
// files of the snapshot's table, which ExportSnapshot would otherwise find there and skip copying ("same file").
// Run: java -cp "$JAR:$(cat spark-jobs/target/launch.classpath):$CLIENT_CONF_DIR" Reset.java SNAPSHOT TABLE...
public class Reset {
  public static void main(String[] a) throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(HBaseConfiguration.create());
        Admin admin = conn.getAdmin()) {
      for (var s : admin.listSnapshots()) {
        if (s.getName().equals(a[0])) {
          admin.deleteSnapshot(a[0]);
          System.out.println("deleted snapshot " + a[0]);
          var root = org.apache.hadoop.hbase.util.CommonFSUtils.getRootDir(conn.getConfiguration());
          var archive =
              org.apache.hadoop.hbase.util.HFileArchiveUtil.getTableArchivePath(root, s.getTableName());
          if (archive.getFileSystem(conn.getConfiguration()).delete(archive, true)) {
            System.out.println("deleted " + archive);
          }
        }
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

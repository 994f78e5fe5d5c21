// Bench helper (not part of rekey): copies a table keyed by layout A into a new pre-split table keyed by layout B
// with Puts, cells unchanged (family, qualifier, timestamp, value). Gives the benchmark a rekeyed twin of the
// demo's telemetry_v1 without depending on the backfill job.
// Run: java -cp "$JAR:$(cat spark-jobs/target/launch.classpath):$CLIENT_CONF_DIR" CopyRekeyed.java SRC A.yaml DST B.yaml REGIONS
import dev.rekey.rowkey.KeyLayout;
import java.nio.file.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.*;

public class CopyRekeyed {
  public static void main(String[] a) throws Exception {
    TableName src = TableName.valueOf(a[0]);
    KeyLayout from = KeyLayout.load(Path.of(a[1]));
    TableName dst = TableName.valueOf(a[2]);
    KeyLayout to = KeyLayout.load(Path.of(a[3]));
    int regions = Integer.parseInt(a[4]);
    try (Connection conn = ConnectionFactory.createConnection(HBaseConfiguration.create()); Admin admin = conn.getAdmin()) {
      if (admin.tableExists(dst)) {
        admin.disableTable(dst);
        admin.deleteTable(dst);
      }
      TableDescriptorBuilder td = TableDescriptorBuilder.newBuilder(dst);
      for (ColumnFamilyDescriptor f : admin.getDescriptor(src).getColumnFamilies()) {
        td.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(f.getName()).build());
      }
      admin.createTable(td.build(), to.splitPoints(regions).toArray(new byte[0][]));
      long n = 0;
      try (Table t = conn.getTable(src); ResultScanner s = t.getScanner(new Scan().setCaching(2000));
           BufferedMutator m = conn.getBufferedMutator(new BufferedMutatorParams(dst).writeBufferSize(8L << 20))) {
        for (Result r : s) {
          Put p = new Put(to.encode(from.decode(r.getRow()).fields()));
          for (Cell c : r.rawCells()) {
            p.addColumn(org.apache.hadoop.hbase.CellUtil.cloneFamily(c), org.apache.hadoop.hbase.CellUtil.cloneQualifier(c),
                c.getTimestamp(), org.apache.hadoop.hbase.CellUtil.cloneValue(c));
          }
          m.mutate(p);
          n++;
        }
      }
      admin.flush(dst);
      String snap = dst.getNameAsString() + "_snap";
      if (admin.listSnapshots().stream().anyMatch(x -> x.getName().equals(snap))) {
        admin.deleteSnapshot(snap);
      }
      admin.snapshot(snap, dst);
      System.out.println("copied " + n + " rows from " + src + " to " + dst + " (" + regions + " regions), snapshot " + snap);
    }
  }
}

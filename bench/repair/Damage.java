// Bench helper (not part of rekey): damages a new table with a plain HBase client, as an operator's mistake or a
// lost write would, in a few time buckets of the old table's readings; and compacts or drops a table.
//   damage OLD OLD.yaml NEW NEW.yaml FROM_MS BUCKET_MS B1,B2,B3 DELETE_ROWS CHANGE_CELLS DROP_CELLS
//     the old table's rows of buckets B1.. (by the key's ts) re-keyed into NEW: every k-th row deleted (a row Delete),
//     DELETE_ROWS in all; CHANGE_CELLS values overwritten at their own timestamps; DROP_CELLS cells deleted at their
//     exact timestamps (the readings have one version per cell: a dropped cell stands for a dropped version)
//   compact TABLE    flush and major-compact, waiting until no compaction runs (delete markers gone)
//   drop TABLE       disable and delete, if it exists
//   new-version-behavior TABLE true|false   sets HBase's NEW_VERSION_BEHAVIOR on every family (regions reopened)
// Run: java -cp "$JAR:$(cat spark-jobs/target/launch.classpath):$CLIENT_CONF_DIR" Damage.java MODE ...
import dev.rekey.rowkey.KeyLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

public class Damage {
  public static void main(String[] a) throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(HBaseConfiguration.create());
        Admin admin = conn.getAdmin()) {
      switch (a[0]) {
        case "drop" -> {
          TableName t = TableName.valueOf(a[1]);
          if (admin.tableExists(t)) {
            admin.disableTable(t);
            admin.deleteTable(t);
          }
        }
        case "compact" -> {
          TableName t = TableName.valueOf(a[1]);
          admin.flush(t);
          admin.majorCompact(t);
          // the request is queued: first see it start (it may also be done already), then end
          try {
            dev.rekey.common.Poll.until(
                () -> admin.getCompactionState(t) != CompactionState.NONE,
                java.time.Duration.ofSeconds(5),
                java.time.Duration.ofMillis(100),
                () -> new IllegalStateException("not started"));
          } catch (IllegalStateException finishedAlready) {
            // nothing to wait for
          }
          dev.rekey.common.Poll.until(
              () -> admin.getCompactionState(t) == CompactionState.NONE,
              java.time.Duration.ofMinutes(30),
              java.time.Duration.ofMillis(500),
              () -> new IllegalStateException("major compaction of " + t + " did not end"));
        }
        case "damage" -> damage(conn, a);
        case "new-version-behavior" -> {
          TableName t = TableName.valueOf(a[1]);
          for (org.apache.hadoop.hbase.client.ColumnFamilyDescriptor f :
              admin.getDescriptor(t).getColumnFamilies()) {
            admin.modifyColumnFamily(
                t,
                org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder.newBuilder(f)
                    .setNewVersionBehavior(Boolean.parseBoolean(a[2]))
                    .build());
          }
        }
        default ->
            throw new IllegalArgumentException("mode: damage, compact, drop or new-version-behavior");
      }
    }
  }

  private static void damage(Connection conn, String[] a) throws Exception {
    TableName old = TableName.valueOf(a[1]);
    KeyLayout from = KeyLayout.load(Path.of(a[2]));
    TableName neu = TableName.valueOf(a[3]);
    KeyLayout to = KeyLayout.load(Path.of(a[4]));
    long start = Long.parseLong(a[5]);
    long size = Long.parseLong(a[6]);
    String[] buckets = a[7].split(",");
    long deleteRows = Long.parseLong(a[8]);
    long changeCells = Long.parseLong(a[9]);
    long dropCells = Long.parseLong(a[10]);
    long perBucketDelete = deleteRows / buckets.length;
    long perBucketChange = changeCells / buckets.length;
    long perBucketDrop = dropCells / buckets.length;
    long deleted = 0, changed = 0, dropped = 0;
    try (Table src = conn.getTable(old);
        Table dst = conn.getTable(neu)) {
      for (String b : buckets) {
        long t0 = start + Long.parseLong(b) * size;
        List<Result> rows = new ArrayList<>();
        // the bucket by the key's time field (the readings' time), as rekey's buckets are cut
        try (ResultScanner s = src.getScanner(new Scan().setCaching(2000))) {
          for (Result r : s) {
            long ts = ((Number) from.decode(r.getRow()).fields().get("ts")).longValue();
            if (ts >= t0 && ts < t0 + size) {
              rows.add(r);
            }
          }
        }
        long n = rows.size();
        long used = perBucketDelete + perBucketChange + perBucketDrop;
        if (used > n) {
          throw new IllegalStateException("bucket " + b + " has " + n + " rows, fewer than the " + used + " to damage");
        }
        long step = n / used;
        List<Mutation> out = new ArrayList<>();
        for (long i = 0; i < used; i++) {
          Result r = rows.get((int) (i * step));
          byte[] key = to.encode(from.decode(r.getRow()).fields());
          Cell c = r.rawCells()[0];
          if (i < perBucketDelete) {
            out.add(new Delete(key));
            deleted++;
          } else if (i < perBucketDelete + perBucketChange) {
            byte[] v = CellUtil.cloneValue(c);
            v[v.length - 1] ^= 0x5a;
            out.add(new Put(key).addColumn(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c), c.getTimestamp(), v));
            changed++;
          } else {
            out.add(new Delete(key).addColumn(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c), c.getTimestamp()));
            dropped++;
          }
        }
        dst.batch(out, new Object[out.size()]);
      }
    }
    System.out.printf("damaged %s: %,d rows deleted, %,d cells changed, %,d cells dropped in buckets %s%n", neu,
        deleted, changed, dropped, a[7]);
  }
}

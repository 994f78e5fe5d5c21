// Bench helper (not part of rekey): the least reading any repair of the bench's damage must do, without Spark — a JVM
// with the HBase client, the old table's snapshot taken (as `repair --via-snapshot` takes it) and deleted, and both
// sides of the damaged buckets read once: the old side from that snapshot's files (HBase's TableSnapshotScanner, one
// key range per bucket), the new table through its region server (one range per salt and bucket), every version; a
// task per bucket and side on THREADS threads. Nothing compared, nothing written, no re-check after a write.
//   ReadFloor OLD NEW FROM_MS BUCKET_MS B1,B2,B3 SALTS THREADS
// Keys: the bench's layouts (telemetry-v1: ts(8) | deviceId; telemetry-v2: salt(1) | ts(8) | deviceId), so a bucket
// is one key range of the old table and SALTS ranges of the new one. Prints each side's rows and cells and where the
// time went (stderr).
import dev.rekey.bench.ParallelCounts;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableSnapshotScanner;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;

public class ReadFloor {
  public static void main(String[] a) throws Exception {
    TableName oldTable = TableName.valueOf(a[0]);
    TableName neu = TableName.valueOf(a[1]);
    long start = Long.parseLong(a[2]);
    long size = Long.parseLong(a[3]);
    String[] buckets = a[4].split(",");
    int salts = Integer.parseInt(a[5]);
    int threads = Integer.parseInt(a[6]);
    Configuration conf = HBaseConfiguration.create();
    try (Connection conn = ConnectionFactory.createConnection(conf);
        Admin admin = conn.getAdmin()) {
      long started = ManagementFactory.getRuntimeMXBean().getStartTime();
      System.err.printf("floor: JVM start and connection %.2f s%n", (System.currentTimeMillis() - started) / 1e3);
      String snap = "rekey_read_floor_" + UUID.randomUUID().toString().replace("-", "");
      long t = System.nanoTime();
      admin.snapshot(snap, oldTable);
      System.err.printf("floor: snapshot of %s %.2f s%n", oldTable, (System.nanoTime() - t) / 1e9);
      Path root = CommonFSUtils.getRootDir(conf);
      Path restore = new Path(root.getParent(), "read-floor-restore-" + snap);
      // a task per bucket and side, counted apart per side
      List<String[]> parts = new ArrayList<>();
      for (String b : buckets) {
        parts.add(new String[] {"old", b});
        parts.add(new String[] {"new", b});
      }
      long[] old = new long[2];
      try {
        t = System.nanoTime();
        long[] both =
            ParallelCounts.sum(parts, threads, part -> {
              long t0 = start + Long.parseLong(part[1]) * size;
              if (part[0].equals("new")) {
                return readLive(conn, neu, salts, t0, size);
              }
              long[] n = readSnapshot(conf, root, new Path(restore, part[1]), snap, t0, size);
              synchronized (old) {
                old[0] += n[0];
                old[1] += n[1];
              }
              return n;
            });
        System.err.printf("floor: both sides read %.2f s%n", (System.nanoTime() - t) / 1e9);
        System.out.printf("read floor: %s %,d rows %,d cells (snapshot), %s %,d rows %,d cells%n", oldTable, old[0],
            old[1], neu, both[0] - old[0], both[1] - old[1]);
      } finally {
        root.getFileSystem(conf).delete(restore, true);
        admin.deleteSnapshot(snap);
      }
    }
  }

  private static long[] readSnapshot(Configuration conf, Path root, Path restore, String snap, long t0, long size)
      throws Exception {
    Scan s = new Scan().withStartRow(Bytes.toBytes(t0)).withStopRow(Bytes.toBytes(t0 + size)).readAllVersions()
        .setCacheBlocks(false);
    long rows = 0, cells = 0;
    try (TableSnapshotScanner sc = new TableSnapshotScanner(conf, root, restore, snap, s)) {
      for (Result r : sc) {
        rows++;
        cells += r.size();
      }
    }
    return new long[] {rows, cells};
  }

  private static long[] readLive(Connection conn, TableName neu, int salts, long t0, long size) throws Exception {
    long rows = 0, cells = 0;
    try (Table table = conn.getTable(neu)) {
      for (int salt = 0; salt < salts; salt++) {
        byte[] p = {(byte) salt};
        Scan s = new Scan().withStartRow(Bytes.add(p, Bytes.toBytes(t0))).withStopRow(Bytes.add(p, Bytes.toBytes(t0 + size)))
            .readAllVersions().setCaching(5000).setCacheBlocks(false);
        try (ResultScanner sc = table.getScanner(s)) {
          for (Result r : sc) {
            rows++;
            cells += r.size();
          }
        }
      }
    }
    return new long[] {rows, cells};
  }
}

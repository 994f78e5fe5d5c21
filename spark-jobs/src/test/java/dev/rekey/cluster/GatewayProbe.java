package dev.rekey.cluster;

import dev.rekey.common.LayoutFiles;
import dev.rekey.demo.TableContents;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * A client run on the gateway host of the several-host stack ({@code cluster run gateway -- java
 * ... GatewayProbe TABLE}): what HDFS, HBase, YARN and Spark's master say of their workers, one
 * {@code probe KEY: VALUES} line each, then a table created, a row put and read back. Reads its
 * configs from the gateway's HADOOP_CONF_DIR and HBASE_CONF_DIR, as a user's tool would.
 */
public final class GatewayProbe {
  private GatewayProbe() {}

  public static void main(String[] args) throws Exception {
    Configuration hadoop = hadoopConf();
    if (args[0].equals("cat")) {
      cat(hadoop, args[1]);
      return;
    }
    if (args[0].equals("drop")) {
      try (Connection conn = ConnectionFactory.createConnection(hbaseConf());
          Admin admin = conn.getAdmin()) {
        TableName t = TableName.valueOf(args[1]);
        if (admin.tableExists(t)) {
          admin.disableTable(t);
          admin.deleteTable(t);
        }
      }
      return;
    }
    if (args[0].equals("fill")) {
      fill(TableName.valueOf(args[1]), Long.parseLong(args[2]), args[3]);
      return;
    }
    if (args[0].equals("compare")) {
      compare(args[1], args[2], args[3], args[4]);
      return;
    }
    try (DistributedFileSystem fs = (DistributedFileSystem) FileSystem.newInstance(hadoop)) {
      List<String> dns = new ArrayList<>();
      for (DatanodeInfo d : fs.getDataNodeStats(DatanodeReportType.LIVE)) {
        dns.add(d.getHostName() + "=" + d.getIpAddr());
      }
      System.out.println("probe datanodes: " + String.join(",", new TreeSet<>(dns)));
    }
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(new YarnConfiguration(hadoop));
      yarn.start();
      TreeSet<String> nms = new TreeSet<>();
      for (NodeReport n : yarn.getNodeReports(NodeState.RUNNING)) {
        nms.add(n.getNodeId().getHost());
      }
      System.out.println("probe nodemanagers: " + String.join(",", nms));
    }
    System.out.println("probe sparkworkers: " + String.join(",", sparkWorkers()));
    hbase(TableName.valueOf(args[0]));
  }

  /**
   * A legacy telemetry table ({@code ts | deviceId}, the demo's) of {@code rows} readings over the
   * demo's day, flushed, and its snapshot: what a backfill reads. An earlier table and snapshot of
   * those names are dropped first.
   */
  private static void fill(TableName table, long rows, String snapshot) throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(hbaseConf());
        Admin admin = conn.getAdmin()) {
      admin.listSnapshots().stream()
          .filter(d -> d.getName().equals(snapshot))
          .forEach(
              d -> {
                try {
                  admin.deleteSnapshot(snapshot);
                } catch (java.io.IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      if (admin.tableExists(table)) {
        admin.disableTable(table);
        admin.deleteTable(table);
      }
      dev.rekey.demo.LegacyTelemetryTable.create(admin, table);
      dev.rekey.demo.LegacyTelemetryTable.write(
          conn, table, dev.rekey.demo.TelemetryGenerator.oneDay(rows, 50), System.out::println);
      admin.flush(table);
      admin.snapshot(snapshot, table);
      System.out.println("probe filled: " + rows + " rows, snapshot " + snapshot);
    }
  }

  private static Configuration hadoopConf() {
    Configuration hadoop = new Configuration();
    Path conf = Path.of(System.getenv("HADOOP_CONF_DIR"));
    for (String site : List.of("core-site.xml", "hdfs-site.xml", "yarn-site.xml")) {
      hadoop.addResource(new org.apache.hadoop.fs.Path(conf.resolve(site).toUri()));
    }
    return hadoop;
  }

  /**
   * Every line of the part files of the directory {@code uri} (a Spark output), each as {@code
   * probe line: TEXT}, read through Hadoop's FileSystem as any client would.
   */
  private static void cat(Configuration hadoop, String uri) throws Exception {
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(uri);
    FileSystem fs = dir.getFileSystem(hadoop);
    for (org.apache.hadoop.fs.FileStatus f : fs.listStatus(dir)) {
      if (!f.getPath().getName().startsWith("part-")) {
        continue;
      }
      try (var in = fs.open(f.getPath())) {
        for (String l : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
          System.out.println("probe line: " + l);
        }
      }
    }
  }

  /**
   * The old and the new table read with a plain HBase client and compared by natural key, every
   * cell and version with its timestamp: {@code probe equal: true N rows M cells} when they agree.
   */
  private static void compare(String oldTable, String oldLayout, String newTable, String newLayout)
      throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(hbaseConf())) {
      Map<String, List<String>> old =
          TableContents.byNaturalKey(
              conn, TableName.valueOf(oldTable), LayoutFiles.load(oldLayout, "probe"));
      Map<String, List<String>> neu =
          TableContents.byNaturalKey(
              conn, TableName.valueOf(newTable), LayoutFiles.load(newLayout, "probe"));
      System.out.printf(
          "probe equal: %s %d rows %d cells (old: %d rows %d cells)%n",
          old.equals(neu),
          neu.size(),
          TableContents.cells(neu),
          old.size(),
          TableContents.cells(old));
      try (Admin admin = conn.getAdmin()) {
        long loads =
            admin.getDescriptor(TableName.valueOf(newTable)).getValues().keySet().stream()
                .filter(k -> Bytes.toString(k.get()).startsWith("rekey.backfill."))
                .count();
        System.out.println("probe load records: " + loads);
      }
    }
  }

  private static Configuration hbaseConf() {
    Configuration c = HBaseConfiguration.create();
    c.addResource(
        new org.apache.hadoop.fs.Path(
            Path.of(System.getenv("HBASE_CONF_DIR"), "hbase-site.xml").toUri()));
    return c;
  }

  private static TreeSet<String> sparkWorkers() throws Exception {
    String json;
    try (var in = URI.create("http://master:8080/json/").toURL().openStream()) {
      json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    TreeSet<String> hosts = new TreeSet<>();
    Matcher m = Pattern.compile("\"host\"\\s*:\\s*\"([^\"]+)\"").matcher(json);
    while (m.find()) {
      hosts.add(m.group(1));
    }
    return hosts;
  }

  private static void hbase(TableName table) throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(hbaseConf());
        Admin admin = conn.getAdmin()) {
      TreeSet<String> rs = new TreeSet<>();
      for (ServerName s : admin.getRegionServers()) {
        rs.add(s.getHostname());
      }
      System.out.println("probe regionservers: " + String.join(",", rs));
      if (admin.tableExists(table)) {
        admin.disableTable(table);
        admin.deleteTable(table);
      }
      admin.createTable(
          TableDescriptorBuilder.newBuilder(table)
              .setColumnFamily(ColumnFamilyDescriptorBuilder.of("d"))
              .build());
      try (Table t = conn.getTable(table)) {
        t.put(
            new Put(Bytes.toBytes("row1"))
                .addColumn(
                    Bytes.toBytes("d"), Bytes.toBytes("q"), Bytes.toBytes("from the gateway")));
        byte[] v =
            t.get(new Get(Bytes.toBytes("row1"))).getValue(Bytes.toBytes("d"), Bytes.toBytes("q"));
        System.out.println("probe row1: " + Bytes.toString(v));
      }
      System.out.println(
          "probe region on: "
              + conn.getRegionLocator(table)
                  .getAllRegionLocations()
                  .get(0)
                  .getServerName()
                  .getHostname());
    }
  }
}

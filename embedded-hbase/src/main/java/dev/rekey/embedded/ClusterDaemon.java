package dev.rekey.embedded;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One process of the pseudo-distributed cluster: its role (also the name of its pid and log files),
 * main class and arguments, heap, the port clients know it by, the log line that says it is ready,
 * and the roles it needs ready before it can start.
 */
record ClusterDaemon(
    String role,
    String mainClass,
    List<String> args,
    String heap,
    String portKey,
    String readyLine,
    List<String> after) {
  /**
   * The cluster's daemons, in start order: HDFS, ZooKeeper, the HBase master and two RegionServers
   * (each on its own port from {@code ports}), YARN.
   */
  static List<ClusterDaemon> all(Map<String, Integer> ports) {
    return all(ports, null);
  }

  /**
   * As {@link #all(Map)}; on a kerberized stack ({@code kerberos} not null) a KDC first, which
   * every other daemon waits for (it writes their keytabs and the realm's krb5.conf).
   */
  static List<ClusterDaemon> all(Map<String, Integer> ports, KerberosRealm kerberos) {
    List<ClusterDaemon> plain = plain(ports);
    if (kerberos == null) {
      return plain;
    }
    List<String> args = new ArrayList<>();
    args.add("@DIR@/data/kdc");
    args.add(Integer.toString(ports.get("kdc")));
    args.add("@DIR@/conf/krb5.conf");
    args.addAll(kerberos.keytabArgs());
    List<ClusterDaemon> list = new ArrayList<>();
    list.add(
        new ClusterDaemon(
            "kdc", KdcDaemon.class.getName(), args, "-Xmx128m", "kdc", KdcDaemon.READY, List.of()));
    for (ClusterDaemon d : plain) {
      List<String> after = new ArrayList<>(d.after());
      after.add("kdc");
      list.add(
          new ClusterDaemon(
              d.role(), d.mainClass(), d.args(), d.heap(), d.portKey(), d.readyLine(), after));
    }
    return list;
  }

  private static List<ClusterDaemon> plain(Map<String, Integer> ports) {
    String hmaster = EmbeddedHBase.MAIN_CLASS;
    String hrs = "org.apache.hadoop.hbase.regionserver.HRegionServer";
    List<ClusterDaemon> list = new ArrayList<>();
    list.add(
        new ClusterDaemon(
            "namenode",
            "org.apache.hadoop.hdfs.server.namenode.NameNode",
            List.of(),
            "-Xmx256m",
            "namenode",
            "NameNode RPC up at",
            List.of()));
    list.add(
        new ClusterDaemon(
            "datanode",
            "org.apache.hadoop.hdfs.server.datanode.DataNode",
            List.of(),
            "-Xmx256m",
            "datanode",
            "Successfully sent block report",
            List.of("namenode")));
    list.add(
        new ClusterDaemon(
            "zookeeper",
            "org.apache.zookeeper.server.ZooKeeperServerMain",
            List.of("@DIR@/conf/zoo.cfg"),
            "-Xmx128m",
            "zookeeper",
            "binding to port",
            List.of()));
    list.add(
        new ClusterDaemon(
            "hbase-master",
            hmaster,
            List.of("start"),
            "-Xmx384m",
            "hbase.master",
            "Master has completed initialization",
            List.of("datanode", "zookeeper")));
    for (String rs : List.of("regionserver-1", "regionserver-2")) {
      Integer port = ports.get(rs);
      list.add(
          new ClusterDaemon(
              rs,
              hrs,
              List.of(
                  "-D",
                  "hbase.regionserver.port=" + port,
                  "-D",
                  "hbase.tmp.dir=@DIR@/data/hbase-tmp/" + rs,
                  "start"),
              "-Xmx768m",
              rs,
              "Serving as",
              List.of("datanode", "zookeeper")));
    }
    list.add(
        new ClusterDaemon(
            "resourcemanager",
            "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager",
            List.of(),
            "-Xmx384m",
            "yarn.rm",
            "Transitioned to active state",
            List.of()));
    list.add(
        new ClusterDaemon(
            "nodemanager",
            "org.apache.hadoop.yarn.server.nodemanager.NodeManager",
            List.of(),
            "-Xmx256m",
            "yarn.nm",
            "Registered with ResourceManager as",
            List.of("resourcemanager")));
    return list;
  }
}

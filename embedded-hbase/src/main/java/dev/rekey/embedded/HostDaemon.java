package dev.rekey.embedded;

import dev.rekey.embedded.HostPlan.Host;
import java.util.ArrayList;
import java.util.List;

/**
 * One daemon of a several-host stack: its role (the name of its pid and log files, unique in the
 * stack: {@code datanode-1} is worker1's DataNode), host, main class and arguments, heap, the port
 * it serves on its host, its ready line, the roles it needs ready first, and whether it runs on
 * Spark's jars rather than the Hadoop/HBase server classpath.
 */
record HostDaemon(
    String role,
    Host host,
    String mainClass,
    List<String> args,
    String heap,
    int port,
    String readyLine,
    List<String> after,
    boolean spark) {

  /**
   * The master's daemons (NameNode, ZooKeeper, HBase master, ResourceManager, Spark master), then
   * each worker's (DataNode, RegionServer, NodeManager, Spark worker).
   */
  static List<HostDaemon> all(HostPlan plan) {
    Host m = plan.master();
    List<HostDaemon> list = new ArrayList<>();
    List<String> dataNodes = new ArrayList<>();
    List<String> regionServers = new ArrayList<>();
    for (int i = 1; i <= plan.workers().size(); i++) {
      dataNodes.add("datanode-" + i);
      regionServers.add("regionserver-" + i);
    }
    list.add(
        hadoop(m, "namenode", "hdfs.server.namenode.NameNode", 256, 8020, "NameNode RPC up at"));
    list.add(
        new HostDaemon(
            "zookeeper",
            m,
            "org.apache.zookeeper.server.ZooKeeperServerMain",
            List.of(plan.hostDir(m).resolve("conf/zoo.cfg").toString()),
            "-Xmx128m",
            HostSites.ZOOKEEPER,
            "binding to port",
            List.of(),
            false));
    list.add(
        new HostDaemon(
            "hbase-master",
            m,
            EmbeddedHBase.MAIN_CLASS,
            List.of("start"),
            "-Xmx384m",
            HostSites.HBASE_MASTER,
            "Master has completed initialization",
            concat(List.of("zookeeper"), dataNodes),
            false));
    list.add(
        hadoop(
            m,
            "resourcemanager",
            "yarn.server.resourcemanager.ResourceManager",
            384,
            HostSites.YARN_RM,
            "Transitioned to active state"));
    list.add(
        new HostDaemon(
            "spark-master",
            m,
            "org.apache.spark.deploy.master.Master",
            List.of(
                "--host",
                m.name(),
                "--port",
                Integer.toString(HostSites.SPARK_MASTER),
                "--webui-port",
                Integer.toString(HostSites.SPARK_MASTER_UI)),
            "-Xmx384m",
            HostSites.SPARK_MASTER,
            "I have been elected leader",
            List.of(),
            true));
    for (int i = 1; i <= plan.workers().size(); i++) {
      list.addAll(worker(plan, plan.workers().get(i - 1), i));
    }
    return list;
  }

  private static List<HostDaemon> worker(HostPlan plan, Host w, int i) {
    String spark = "spark://" + plan.master().name() + ":" + HostSites.SPARK_MASTER;
    HostDaemon dn =
        hadoop(w, "datanode-" + i, "hdfs.server.datanode.DataNode", 256, 9866, "sent block report");
    HostDaemon nm =
        hadoop(
            w,
            "nodemanager-" + i,
            "yarn.server.nodemanager.NodeManager",
            256,
            8041,
            "Registered with ResourceManager as");
    return List.of(
        new HostDaemon(
            dn.role(),
            w,
            dn.mainClass(),
            List.of(),
            dn.heap(),
            9866,
            dn.readyLine(),
            List.of("namenode"),
            false),
        new HostDaemon(
            "regionserver-" + i,
            w,
            "org.apache.hadoop.hbase.regionserver.HRegionServer",
            List.of("start"),
            "-Xmx640m",
            HostSites.REGIONSERVER,
            "Serving as",
            List.of("datanode-" + i, "zookeeper"),
            false),
        new HostDaemon(
            nm.role(),
            w,
            nm.mainClass(),
            List.of(),
            nm.heap(),
            8041,
            nm.readyLine(),
            List.of("resourcemanager"),
            false),
        new HostDaemon(
            "spark-worker-" + i,
            w,
            "org.apache.spark.deploy.worker.Worker",
            List.of(
                "--host",
                w.name(),
                "--port",
                Integer.toString(HostSites.SPARK_WORKER),
                "--cores",
                "2",
                "--memory",
                "2g",
                "--webui-port",
                "8081",
                "--work-dir",
                plan.logs(w).resolve("spark-work").toString(),
                spark),
            "-Xmx256m",
            HostSites.SPARK_WORKER,
            "Successfully registered with master",
            List.of("spark-master"),
            true));
  }

  private static HostDaemon hadoop(
      Host h, String role, String cls, int heapMb, int port, String ready) {
    return new HostDaemon(
        role,
        h,
        "org.apache.hadoop." + cls,
        List.of(),
        "-Xmx" + heapMb + "m",
        port,
        ready,
        List.of(),
        false);
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}

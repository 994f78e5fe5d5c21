package dev.rekey.embedded;

import dev.rekey.embedded.HostPlan.Host;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The site files of one host of a several-host stack. Every host has its own copy, as on a real
 * cluster: the same cluster addresses (NameNode, ZooKeeper, HBase master, ResourceManager: all on
 * the master host, by name), and the host's own name and address for what it serves itself. Each
 * host is its own network namespace, so the usual fixed ports serve (nothing else binds there);
 * local dirs are at the same path on every host, each host seeing its own ({@link HostShell}).
 */
final class HostSites {
  static final int NAMENODE = 8020;
  static final int ZOOKEEPER = 2181;
  static final int HBASE_MASTER = 16000;
  static final int REGIONSERVER = 16020;
  static final int YARN_RM = 8032;
  static final int SPARK_MASTER = 7077;
  static final int SPARK_MASTER_UI = 8080;
  static final int SPARK_WORKER = 7078;

  private final HostPlan plan;
  private final Host host;
  private final String local;

  HostSites(HostPlan plan, Host host) {
    this.plan = plan;
    this.host = host;
    this.local = plan.local().toString();
  }

  private String master() {
    return plan.master().name();
  }

  String defaultFs() {
    return "hdfs://" + master() + ":" + NAMENODE;
  }

  String coreSite() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("fs.defaultFS", defaultFs());
    p.put("hadoop.tmp.dir", local + "/hadoop-tmp");
    return SiteXml.of("Hadoop on host " + host.name() + " of the rekey several-host stack", p);
  }

  String hdfsSite(int workers) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("dfs.namenode.name.dir", "file://" + local + "/namenode");
    p.put("dfs.datanode.data.dir", "file://" + local + "/datanode");
    p.put("dfs.replication", Integer.toString(Math.min(2, workers)));
    p.put("dfs.permissions.enabled", "false");
    p.put("dfs.namenode.rpc-address", master() + ":" + NAMENODE);
    p.put("dfs.namenode.rpc-bind-host", plan.master().address());
    p.put("dfs.namenode.http-address", master() + ":9870");
    p.put("dfs.namenode.http-bind-host", plan.master().address());
    p.put("dfs.namenode.secondary.http-address", host.address() + ":0");
    p.put("dfs.datanode.address", host.address() + ":9866");
    p.put("dfs.datanode.http.address", host.address() + ":9864");
    p.put("dfs.datanode.ipc.address", host.address() + ":9867");
    p.put("dfs.datanode.hostname", host.name());
    StackTuning.hdfs(p);
    return SiteXml.of("HDFS on host " + host.name() + " of the rekey several-host stack", p);
  }

  private Map<String, String> hbaseCommon() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("hbase.cluster.distributed", "true");
    p.put("fs.defaultFS", defaultFs());
    p.put("hbase.rootdir", defaultFs() + "/hbase");
    p.put("hbase.zookeeper.quorum", master());
    p.put("hbase.zookeeper.property.clientPort", Integer.toString(ZOOKEEPER));
    return p;
  }

  /** The HBase servers' site on the master and on the workers. */
  String hbaseServerSite(int workers) {
    Map<String, String> p = hbaseCommon();
    p.put("hbase.tmp.dir", local + "/hbase-tmp");
    StackTuning.hbaseServers(p);
    p.put("hbase.master.hostname", master());
    p.put("hbase.master.ipc.address", plan.master().address());
    p.put("hbase.master.port", Integer.toString(HBASE_MASTER));
    p.put("hbase.regionserver.hostname", host.name());
    p.put("hbase.regionserver.ipc.address", host.address());
    p.put("hbase.regionserver.port", Integer.toString(REGIONSERVER));
    p.put("hbase.master.wait.on.regionservers.mintostart", Integer.toString(workers));
    return SiteXml.of(
        "HBase servers on host " + host.name() + " of the rekey several-host stack", p);
  }

  /** The client's site (the gateway's hbase-site.xml): the same timeouts as the single host's. */
  String hbaseClientSite() {
    Map<String, String> p = hbaseCommon();
    StackTuning.client(p);
    return SiteXml.of(
        "Client config of the rekey several-host stack: pass it to jobs with the hbase-site option",
        p);
  }

  String yarnSite(int nodeMemoryMb, int nodeVcores) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("yarn.resourcemanager.hostname", master());
    p.put("yarn.resourcemanager.bind-host", plan.master().address());
    p.put("yarn.resourcemanager.address", master() + ":" + YARN_RM);
    p.put("yarn.resourcemanager.webapp.address", master() + ":8088");
    p.put("yarn.nodemanager.hostname", host.name());
    p.put("yarn.nodemanager.bind-host", host.address());
    p.put("yarn.nodemanager.address", host.name() + ":8041");
    p.put("yarn.nodemanager.local-dirs", local + "/yarn-local");
    p.put("yarn.nodemanager.log-dirs", plan.logs(host).resolve("containers").toString());
    StackTuning.yarnNode(p, nodeMemoryMb, nodeVcores);
    return SiteXml.of("YARN on host " + host.name() + " of the rekey several-host stack", p);
  }

  String zooCfg() {
    return "# ZooKeeper of the rekey several-host stack\n"
        + "tickTime=1000\n"
        + "dataDir="
        + local
        + "/zookeeper\n"
        + "clientPort="
        + ZOOKEEPER
        + "\nclientPortAddress="
        + host.address()
        + "\nmaxClientCnxns=200\nadmin.enableServer=false\n";
  }
}

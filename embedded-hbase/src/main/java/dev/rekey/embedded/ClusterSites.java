package dev.rekey.embedded;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The site files of the pseudo-distributed cluster, as pure functions of its directory and the
 * ports chosen at start: core-site (HDFS), hdfs-site, hbase-site (servers and clients), yarn-site
 * and capacity-scheduler. Everything binds to 127.0.0.1; web UIs that nothing here reads are off,
 * the rest are on free ports.
 */
final class ClusterSites {
  static final String HOST = "127.0.0.1";

  /**
   * The name daemons are addressed by on a kerberized stack: a service principal names a host, and
   * 127.0.0.1 resolves to it (they still bind to 127.0.0.1 only).
   */
  static final String KERBEROS_HOST = "localhost";

  private final Path dir;
  private final Map<String, Integer> ports;
  private final KerberosRealm kerberos;

  ClusterSites(Path dir, Map<String, Integer> ports) {
    this(dir, ports, null);
  }

  /**
   * @param kerberos the realm of a kerberized stack, or null
   */
  ClusterSites(Path dir, Map<String, Integer> ports, KerberosRealm kerberos) {
    this.dir = dir;
    this.ports = ports;
    this.kerberos = kerberos;
  }

  /** The host name in addresses: 127.0.0.1, or localhost on a kerberized stack. */
  String host() {
    return kerberos == null ? HOST : KERBEROS_HOST;
  }

  private String addr(String port) {
    Integer p = ports.get(port);
    if (p == null) {
      throw new IllegalStateException("no port chosen for " + port);
    }
    return host() + ":" + p;
  }

  String defaultFs() {
    return "hdfs://" + addr("namenode");
  }

  String coreSite() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("fs.defaultFS", defaultFs());
    p.put("hadoop.tmp.dir", dir.resolve("data/tmp").toString());
    if (kerberos != null) {
      KerberizedSites.core(p);
    }
    return SiteXml.of(
        "HDFS of the rekey pseudo-distributed cluster (written at start; ports change per start)",
        p);
  }

  String hdfsSite() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("dfs.namenode.name.dir", "file://" + dir.resolve("data/namenode"));
    p.put("dfs.datanode.data.dir", "file://" + dir.resolve("data/datanode"));
    p.put("dfs.replication", "1");
    p.put("dfs.permissions.enabled", Boolean.toString(kerberos != null));
    p.put("dfs.namenode.rpc-address", addr("namenode"));
    p.put("dfs.namenode.rpc-bind-host", HOST);
    p.put("dfs.namenode.http-address", addr("namenode.http"));
    p.put("dfs.namenode.secondary.http-address", HOST + ":0");
    p.put("dfs.datanode.address", addr("datanode"));
    p.put("dfs.datanode.http.address", addr("datanode.http"));
    p.put("dfs.datanode.ipc.address", addr("datanode.ipc"));
    p.put("dfs.datanode.hostname", host());
    StackTuning.hdfs(p);
    p.put("dfs.namenode.datanode.registration.ip-hostname-check", "false");
    if (kerberos != null) {
      KerberizedSites.hdfs(p, kerberos, addr("namenode.https"), addr("datanode.https"));
    }
    return SiteXml.of("HDFS daemons of the rekey pseudo-distributed cluster", p);
  }

  /** What every HBase process and every client reads: root on HDFS, ZooKeeper, timeouts. */
  private Map<String, String> hbaseCommon() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("hbase.cluster.distributed", "true");
    p.put("fs.defaultFS", defaultFs());
    p.put("hbase.rootdir", defaultFs() + "/hbase");
    p.put("hbase.zookeeper.quorum", host());
    p.put("hbase.zookeeper.property.clientPort", Integer.toString(ports.get("zookeeper")));
    if (kerberos != null) {
      KerberizedSites.hbaseCommon(p, kerberos);
    }
    return p;
  }

  String hbaseServerSite() {
    Map<String, String> p = hbaseCommon();
    p.put("hbase.tmp.dir", dir.resolve("data/hbase-tmp").toString());
    StackTuning.hbaseServers(p);
    p.put("hbase.master.hostname", host());
    p.put("hbase.regionserver.hostname", host());
    p.put("hbase.master.ipc.address", HOST);
    p.put("hbase.regionserver.ipc.address", HOST);
    p.put("hbase.master.port", Integer.toString(ports.get("hbase.master")));
    // both RegionServers before the first assignment, so meta and new tables spread over two
    // servers
    p.put("hbase.master.wait.on.regionservers.mintostart", "2");
    if (kerberos != null) {
      KerberizedSites.hbaseServers(p, kerberos);
    }
    return SiteXml.of(
        "HBase servers of the rekey pseudo-distributed cluster (RegionServer ports are set on their command lines)",
        p);
  }

  /** The client config printed by {@code cluster status}: pass it to jobs with --hbase-site. */
  String hbaseClientSite() {
    Map<String, String> p = hbaseCommon();
    StackTuning.client(p);
    if (kerberos != null) {
      // a client given only --hbase-site reads HDFS (snapshots, staging) with these too
      KerberizedSites.hdfsClient(p, kerberos);
    }
    return SiteXml.of(
        "Client config of the rekey pseudo-distributed cluster: pass it to jobs with the hbase-site option",
        p);
  }

  String yarnSite(int nodeMemoryMb, int nodeVcores) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("yarn.resourcemanager.hostname", host());
    p.put("yarn.resourcemanager.bind-host", HOST);
    p.put("yarn.resourcemanager.address", addr("yarn.rm"));
    p.put("yarn.resourcemanager.scheduler.address", addr("yarn.rm.scheduler"));
    p.put("yarn.resourcemanager.resource-tracker.address", addr("yarn.rm.tracker"));
    p.put("yarn.resourcemanager.admin.address", addr("yarn.rm.admin"));
    p.put("yarn.resourcemanager.webapp.address", addr("yarn.rm.http"));
    p.put("yarn.nodemanager.hostname", host());
    p.put("yarn.nodemanager.bind-host", HOST);
    p.put("yarn.nodemanager.address", addr("yarn.nm"));
    p.put("yarn.nodemanager.localizer.address", addr("yarn.nm.localizer"));
    p.put("yarn.nodemanager.webapp.address", addr("yarn.nm.http"));
    p.put("yarn.nodemanager.local-dirs", dir.resolve("data/yarn/local").toString());
    p.put("yarn.nodemanager.log-dirs", dir.resolve("logs/containers").toString());
    StackTuning.yarnNode(p, nodeMemoryMb, nodeVcores);
    if (kerberos != null) {
      KerberizedSites.yarn(p, kerberos, dir.resolve("conf/krb5.conf"));
    }
    return SiteXml.of("YARN of the rekey pseudo-distributed cluster", p);
  }

  static String capacitySchedulerSite() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("yarn.scheduler.capacity.root.queues", "default");
    p.put("yarn.scheduler.capacity.root.default.capacity", "100");
    p.put("yarn.scheduler.capacity.root.default.maximum-capacity", "100");
    p.put("yarn.scheduler.capacity.root.default.state", "RUNNING");
    // the default 10 % would leave no room for a Spark application master on one small node
    p.put("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
    return SiteXml.of("One queue for the rekey pseudo-distributed cluster", p);
  }

  String zooCfg() {
    return "# ZooKeeper of the rekey pseudo-distributed cluster\n"
        + "tickTime=1000\n"
        + "dataDir="
        + dir.resolve("data/zookeeper")
        + "\n"
        + "clientPort="
        + ports.get("zookeeper")
        + "\n"
        + "clientPortAddress="
        + HOST
        + "\n"
        + "maxClientCnxns=200\n"
        + "admin.enableServer=false\n";
  }
}

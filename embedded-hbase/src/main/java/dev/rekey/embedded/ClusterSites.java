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

  private final Path dir;
  private final Map<String, Integer> ports;

  ClusterSites(Path dir, Map<String, Integer> ports) {
    this.dir = dir;
    this.ports = ports;
  }

  private String addr(String port) {
    Integer p = ports.get(port);
    if (p == null) {
      throw new IllegalStateException("no port chosen for " + port);
    }
    return HOST + ":" + p;
  }

  String defaultFs() {
    return "hdfs://" + addr("namenode");
  }

  String coreSite() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("fs.defaultFS", defaultFs());
    p.put("hadoop.tmp.dir", dir.resolve("data/tmp").toString());
    return SiteXml.of(
        "HDFS of the rekey pseudo-distributed cluster (written at start; ports change per start)",
        p);
  }

  String hdfsSite() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("dfs.namenode.name.dir", "file://" + dir.resolve("data/namenode"));
    p.put("dfs.datanode.data.dir", "file://" + dir.resolve("data/datanode"));
    p.put("dfs.replication", "1");
    p.put("dfs.permissions.enabled", "false");
    p.put("dfs.namenode.rpc-address", addr("namenode"));
    p.put("dfs.namenode.rpc-bind-host", HOST);
    p.put("dfs.namenode.http-address", addr("namenode.http"));
    p.put("dfs.namenode.secondary.http-address", HOST + ":0");
    p.put("dfs.datanode.address", addr("datanode"));
    p.put("dfs.datanode.http.address", addr("datanode.http"));
    p.put("dfs.datanode.ipc.address", addr("datanode.ipc"));
    p.put("dfs.datanode.hostname", HOST);
    // one DataNode and nothing to wait for: leave safe mode as soon as the blocks are reported
    p.put("dfs.namenode.safemode.extension", "0");
    p.put("dfs.namenode.safemode.min.datanodes", "1");
    p.put("dfs.namenode.datanode.registration.ip-hostname-check", "false");
    p.put("dfs.heartbeat.interval", "1");
    p.put("dfs.blockreport.initialDelay", "0");
    p.put("dfs.namenode.handler.count", "8");
    p.put("dfs.datanode.handler.count", "4");
    return SiteXml.of("HDFS daemons of the rekey pseudo-distributed cluster", p);
  }

  /** What every HBase process and every client reads: root on HDFS, ZooKeeper, timeouts. */
  private Map<String, String> hbaseCommon() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("hbase.cluster.distributed", "true");
    p.put("fs.defaultFS", defaultFs());
    p.put("hbase.rootdir", defaultFs() + "/hbase");
    p.put("hbase.zookeeper.quorum", HOST);
    p.put("hbase.zookeeper.property.clientPort", Integer.toString(ports.get("zookeeper")));
    return p;
  }

  String hbaseServerSite() {
    Map<String, String> p = hbaseCommon();
    p.put("hbase.tmp.dir", dir.resolve("data/hbase-tmp").toString());
    // a RegionServer killed with -9 is declared dead when its session expires: 10 s, not the
    // default 90 s
    p.put("zookeeper.session.timeout", "10000");
    p.put("hbase.master.hostname", HOST);
    p.put("hbase.regionserver.hostname", HOST);
    p.put("hbase.master.ipc.address", HOST);
    p.put("hbase.regionserver.ipc.address", HOST);
    p.put("hbase.master.port", Integer.toString(ports.get("hbase.master")));
    p.put("hbase.master.info.port", "-1");
    p.put("hbase.regionserver.info.port", "-1");
    // both RegionServers before the first assignment, so meta and new tables spread over two
    // servers
    p.put("hbase.master.wait.on.regionservers.mintostart", "2");
    p.put("hbase.master.wait.on.regionservers.timeout", "500");
    p.put("hbase.master.wait.on.regionservers.interval", "100");
    p.put("hbase.snapshot.enabled", "true");
    // same reason as the embedded server's template: the 2.6 flush procedure can wait forever
    p.put("hbase.flush.procedure.enabled", "false");
    p.put("hbase.regionserver.handler.count", "16");
    p.put("hbase.master.balancer.stochastic.runMaxSteps", "false");
    p.put("hbase.normalizer.period", "86400000");
    p.put("hbase.regionserver.global.memstore.size", "0.3");
    return SiteXml.of(
        "HBase servers of the rekey pseudo-distributed cluster (RegionServer ports are set on their command lines)",
        p);
  }

  /** The client config printed by {@code cluster status}: pass it to jobs with --hbase-site. */
  String hbaseClientSite() {
    Map<String, String> p = hbaseCommon();
    // operation timeout > rpc timeout x retries; rpc >= 5 s, retries >= 5. The 1 s pause
    // makes the
    // retries span ~20 s, long enough for a dead RegionServer's regions to be reassigned.
    p.put("hbase.rpc.timeout", "20000");
    p.put("hbase.client.retries.number", "5");
    p.put("hbase.client.pause", "1000");
    p.put("hbase.client.operation.timeout", "120000");
    p.put("hbase.client.scanner.timeout.period", "60000");
    return SiteXml.of(
        "Client config of the rekey pseudo-distributed cluster: pass it to jobs with the hbase-site option",
        p);
  }

  String yarnSite(int nodeMemoryMb, int nodeVcores) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("yarn.resourcemanager.hostname", HOST);
    p.put("yarn.resourcemanager.bind-host", HOST);
    p.put("yarn.resourcemanager.address", addr("yarn.rm"));
    p.put("yarn.resourcemanager.scheduler.address", addr("yarn.rm.scheduler"));
    p.put("yarn.resourcemanager.resource-tracker.address", addr("yarn.rm.tracker"));
    p.put("yarn.resourcemanager.admin.address", addr("yarn.rm.admin"));
    p.put("yarn.resourcemanager.webapp.address", addr("yarn.rm.http"));
    p.put("yarn.nodemanager.hostname", HOST);
    p.put("yarn.nodemanager.bind-host", HOST);
    p.put("yarn.nodemanager.address", addr("yarn.nm"));
    p.put("yarn.nodemanager.localizer.address", addr("yarn.nm.localizer"));
    p.put("yarn.nodemanager.webapp.address", addr("yarn.nm.http"));
    p.put("yarn.nodemanager.local-dirs", dir.resolve("data/yarn/local").toString());
    p.put("yarn.nodemanager.log-dirs", dir.resolve("logs/containers").toString());
    p.put("yarn.nodemanager.resource.memory-mb", Integer.toString(nodeMemoryMb));
    p.put("yarn.nodemanager.resource.cpu-vcores", Integer.toString(nodeVcores));
    p.put("yarn.scheduler.minimum-allocation-mb", "128");
    p.put("yarn.scheduler.maximum-allocation-mb", Integer.toString(nodeMemoryMb));
    p.put("yarn.scheduler.maximum-allocation-vcores", Integer.toString(nodeVcores));
    // JVM virtual memory is far above its heap; a shared dev machine's disk may be fuller than
    // YARN's 90 %
    p.put("yarn.nodemanager.vmem-check-enabled", "false");
    p.put("yarn.nodemanager.pmem-check-enabled", "false");
    p.put("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "99.0");
    p.put("yarn.nodemanager.delete.debug-delay-sec", "3600");
    p.put("yarn.resourcemanager.nodemanager-connect-retries", "3");
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

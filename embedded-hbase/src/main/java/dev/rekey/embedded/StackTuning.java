package dev.rekey.embedded;

import java.util.Map;

/**
 * The settings both development stacks (one host: {@link ClusterSites}; several: {@link HostSites})
 * give their daemons beside the addresses: small handler pools, fast safe-mode exit and failure
 * detection, one queue's worth of YARN limits, the client timeouts. One place, so the two stacks
 * behave alike and a test's timing on one holds on the other.
 */
final class StackTuning {
  private StackTuning() {}

  /** HDFS: leave safe mode as soon as the blocks are reported; report at once; small pools. */
  static void hdfs(Map<String, String> p) {
    p.put("dfs.namenode.safemode.extension", "0");
    p.put("dfs.namenode.safemode.min.datanodes", "1");
    p.put("dfs.heartbeat.interval", "1");
    p.put("dfs.blockreport.initialDelay", "0");
    p.put("dfs.namenode.handler.count", "8");
    p.put("dfs.datanode.handler.count", "4");
  }

  /**
   * HBase servers: a RegionServer killed with -9 is declared dead when its ZooKeeper session
   * expires (10 s, not the default 90 s); no info servers; the 2.6 flush procedure, which can wait
   * forever, off (as the embedded server's template).
   */
  static void hbaseServers(Map<String, String> p) {
    p.put("zookeeper.session.timeout", "10000");
    p.put("hbase.master.info.port", "-1");
    p.put("hbase.regionserver.info.port", "-1");
    p.put("hbase.master.wait.on.regionservers.timeout", "500");
    p.put("hbase.master.wait.on.regionservers.interval", "100");
    p.put("hbase.snapshot.enabled", "true");
    p.put("hbase.flush.procedure.enabled", "false");
    p.put("hbase.regionserver.handler.count", "16");
    p.put("hbase.master.balancer.stochastic.runMaxSteps", "false");
    p.put("hbase.normalizer.period", "86400000");
    p.put("hbase.regionserver.global.memstore.size", "0.3");
  }

  /**
   * The client's timeouts: operation timeout > rpc timeout x retries; rpc >= 5 s, retries >= 5. The
   * 1 s pause makes the retries span ~20 s, long enough for a dead RegionServer's regions to be
   * reassigned.
   */
  static void client(Map<String, String> p) {
    p.put("hbase.rpc.timeout", "20000");
    p.put("hbase.client.retries.number", "5");
    p.put("hbase.client.pause", "1000");
    p.put("hbase.client.operation.timeout", "120000");
    p.put("hbase.client.scanner.timeout.period", "60000");
  }

  /**
   * A NodeManager's resources and the scheduler's limits; JVM virtual memory is far above its heap
   * and a shared development machine's disk may be fuller than YARN's 90 %, so neither stops a
   * container.
   */
  static void yarnNode(Map<String, String> p, int nodeMemoryMb, int nodeVcores) {
    p.put("yarn.nodemanager.resource.memory-mb", Integer.toString(nodeMemoryMb));
    p.put("yarn.nodemanager.resource.cpu-vcores", Integer.toString(nodeVcores));
    p.put("yarn.scheduler.minimum-allocation-mb", "128");
    p.put("yarn.scheduler.maximum-allocation-mb", Integer.toString(nodeMemoryMb));
    p.put("yarn.scheduler.maximum-allocation-vcores", Integer.toString(nodeVcores));
    p.put("yarn.nodemanager.vmem-check-enabled", "false");
    p.put("yarn.nodemanager.pmem-check-enabled", "false");
    p.put("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "99.0");
    p.put("yarn.nodemanager.delete.debug-delay-sec", "3600");
    p.put("yarn.resourcemanager.nodemanager-connect-retries", "3");
  }
}

package dev.rekey.embedded;

import dev.rekey.embedded.HostPlan.Host;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a several-host stack writes before it starts: each host's configs (its HADOOP_CONF_DIR and
 * HBase conf dir; the gateway's hbase-site is the client config), ZooKeeper's, the shared log
 * config and the Spark home every host uses (like software installed at one path on every node).
 */
final class HostFiles {
  /** Memory and cores each worker's NodeManager offers: an application master and executors fit. */
  static final int NODE_MEMORY_MB = 3072;

  static final int NODE_VCORES = 2;

  private final HostPlan plan;

  HostFiles(HostPlan plan) {
    this.plan = plan;
  }

  void write(Map<String, String> sparkDefaults, List<Path> sparkJars) throws IOException {
    new HostShell(plan).write();
    int workers = plan.workers().size();
    for (Host h : plan.hosts()) {
      HostSites s = new HostSites(plan, h);
      Path hadoop = plan.hadoopConf(h);
      Files.createDirectories(hadoop);
      Files.createDirectories(plan.hbaseConf(h));
      Files.createDirectories(plan.logs(h).resolve("containers"));
      Files.writeString(hadoop.resolve("core-site.xml"), s.coreSite());
      Files.writeString(hadoop.resolve("hdfs-site.xml"), s.hdfsSite(workers));
      Files.writeString(hadoop.resolve("yarn-site.xml"), s.yarnSite(NODE_MEMORY_MB, NODE_VCORES));
      Files.writeString(
          hadoop.resolve("capacity-scheduler.xml"), ClusterSites.capacitySchedulerSite());
      Files.writeString(
          plan.hbaseConf(h).resolve("hbase-site.xml"),
          h.name().equals(HostPlan.GATEWAY) ? s.hbaseClientSite() : s.hbaseServerSite(workers));
      if (h.name().equals(HostPlan.MASTER)) {
        Files.writeString(plan.hostDir(h).resolve("conf/zoo.cfg"), s.zooCfg());
      }
    }
    // ZooKeeper holds nothing HBase cannot rebuild; stale sessions would delay the master
    Daemons.deleteTree(plan.privateDir(plan.master()).resolve("local/zookeeper"));
    Files.createDirectories(plan.dir().resolve("conf"));
    Files.writeString(
        plan.dir().resolve("conf/log4j2.properties"),
        EmbeddedHBase.resource("cluster-log4j2.properties"));
    for (String app : List.of("hdfs", "datanode", "secondary", "journal")) {
      Files.createDirectories(plan.dir().resolve("conf/web/webapps").resolve(app));
    }
    writeSparkHome(sparkDefaults, sparkJars);
  }

  private void writeSparkHome(Map<String, String> defaults, List<Path> jars) throws IOException {
    Path home = plan.sparkHome();
    Daemons.deleteTree(home);
    Files.createDirectories(home.resolve("jars"));
    for (Path jar : jars) {
      Path link = home.resolve("jars").resolve(jar.getFileName());
      if (!Files.exists(link)) {
        Files.createSymbolicLink(link, jar.toAbsolutePath());
      }
    }
    // no HADOOP_CONF_DIR default here: each host's user has its own (HostShell.userEnv)
    SparkSubmitScript.write(home, Map.of(), defaults, null);
  }
}

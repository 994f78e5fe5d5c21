package dev.rekey.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What the pseudo-distributed cluster writes before it starts: its ports, each daemon's
 * configuration (Hadoop, HBase, ZooKeeper, YARN, logging), the client site and the dirs they use.
 */
final class ClusterFiles {
  /** The cluster's port names, one free port each: RPC, HTTP and IPC of every daemon. */
  static final List<String> PORT_NAMES =
      List.of(
          "namenode",
          "namenode.http",
          "datanode",
          "datanode.http",
          "datanode.ipc",
          "zookeeper",
          "hbase.master",
          "regionserver-1",
          "regionserver-2",
          "yarn.rm",
          "yarn.rm.scheduler",
          "yarn.rm.tracker",
          "yarn.rm.admin",
          "yarn.rm.http",
          "yarn.nm",
          "yarn.nm.localizer",
          "yarn.nm.http",
          "kdc",
          "namenode.https",
          "datanode.https");

  private final Path dir;

  ClusterFiles(Path dir) {
    this.dir = dir;
  }

  /** Free ports for every daemon, stored in ports.properties for later commands. */
  Map<String, Integer> choosePorts() throws IOException {
    int[] free = Daemons.freePorts(PORT_NAMES.size());
    Map<String, Integer> ports = new LinkedHashMap<>();
    for (int i = 0; i < PORT_NAMES.size(); i++) {
      ports.put(PORT_NAMES.get(i), free[i]);
    }
    Properties p = new Properties();
    ports.forEach((k, v) -> p.setProperty(k, Integer.toString(v)));
    try (var w = Files.newBufferedWriter(dir.resolve("ports.properties"))) {
      p.store(w, "ports of the rekey pseudo-distributed cluster (127.0.0.1)");
    }
    return ports;
  }

  /** Every daemon's and client's configuration for these ports, and the dirs they need. */
  void write(Map<String, Integer> ports) throws IOException {
    write(ports, null);
  }

  /**
   * As {@link #write(Map)}, kerberized when {@code kerberos} is not null: the sites name the
   * realm's principals and keytabs, the DataNode's HTTPS keystore is made, the realm recorded.
   */
  void write(Map<String, Integer> ports, KerberosRealm kerberos) throws IOException {
    ClusterSites sites = new ClusterSites(dir, ports, kerberos);
    for (String d :
        List.of(
            "conf/hadoop",
            "conf/hbase",
            "client",
            "logs/containers",
            "pids",
            "data/tmp",
            "data/hbase-tmp",
            "data/yarn/local")) {
      Files.createDirectories(dir.resolve(d));
    }
    // ZooKeeper holds nothing HBase cannot rebuild, and stale sessions of a killed cluster would
    // delay the master
    Daemons.deleteTree(dir.resolve("data/zookeeper"));
    Files.createDirectories(dir.resolve("data/zookeeper"));
    Files.writeString(dir.resolve("conf/hadoop").resolve("core-site.xml"), sites.coreSite());
    Files.writeString(dir.resolve("conf/hadoop").resolve("hdfs-site.xml"), sites.hdfsSite());
    Files.writeString(
        dir.resolve("conf/hadoop").resolve("yarn-site.xml"),
        sites.yarnSite(PseudoCluster.NODE_MEMORY_MB, PseudoCluster.NODE_VCORES));
    Files.writeString(
        dir.resolve("conf/hadoop").resolve("capacity-scheduler.xml"),
        ClusterSites.capacitySchedulerSite());
    Files.writeString(dir.resolve("conf/hbase/hbase-site.xml"), sites.hbaseServerSite());
    Files.writeString(dir.resolve("conf/zoo.cfg"), sites.zooCfg());
    Files.writeString(
        dir.resolve("conf/log4j2.properties"), EmbeddedHBase.resource("cluster-log4j2.properties"));
    Files.writeString(dir.resolve("client/hbase-site.xml"), sites.hbaseClientSite());
    // HDFS daemons open their web servers from a classpath folder webapps/NAME, which the Maven
    // jars of Hadoop do
    // not ship (the tarball does): empty folders give them their status pages without the UI
    for (String app : List.of("hdfs", "datanode", "secondary", "journal")) {
      Files.createDirectories(dir.resolve("conf/web/webapps").resolve(app));
    }
    Path sslServer = dir.resolve("conf/hadoop/ssl-server.xml");
    Path sslClient = dir.resolve("conf/hadoop/ssl-client.xml");
    if (kerberos == null) {
      Files.deleteIfExists(dir.resolve(KerberosRealm.FILE));
      Files.deleteIfExists(sslServer);
      Files.deleteIfExists(sslClient);
      return;
    }
    Files.createDirectories(kerberos.keytabDir());
    Files.deleteIfExists(krb5Conf()); // the KDC writes it when it is ready
    kerberos.write(dir, krb5Conf());
    HttpsKeystore.write(dir.resolve("data/keystore.jks"), sslServer, sslClient, sites.host());
  }

  /** The realm's krb5.conf on a kerberized stack: every daemon's and client's. */
  Path krb5Conf() {
    return dir.resolve("conf/krb5.conf");
  }
}

package dev.rekey.embedded;

import java.nio.file.Path;
import java.util.Map;

/**
 * What a kerberized development stack adds to each site file (one place, so the single-host stack
 * and a several-host one set the same): Kerberos authentication of every RPC, each service's
 * principal ({@code SERVICE/_HOST@REALM}, each daemon putting in its own host name) and keytab,
 * HDFS permissions and ACLs on, HBase authorization (AccessController), delegation tokens
 * (TokenProvider), secure bulk load and the HDFS ACLs that let a user granted READ on a table read
 * its snapshots' files (SnapshotScannerHDFSAclController).
 *
 * <p>The DataNode runs without root on ports above 1024: Hadoop 3 accepts that when its data
 * transfer is SASL-authenticated ({@code dfs.data.transfer.protection}) and its web server HTTPS
 * only, which needs a keystore ({@code ssl-server.xml}, written by {@link ClusterFiles}). That is
 * the setup a production cluster without jsvc runs, chosen here over {@code
 * ignore.secure.ports.for.testing}, which switches the check off. ZooKeeper is not kerberized (no
 * SASL): its znodes carry no ACLs here.
 */
final class KerberizedSites {
  private KerberizedSites() {}

  static void core(Map<String, String> p) {
    p.put("hadoop.security.authentication", "kerberos");
    p.put("hadoop.rpc.protection", "authentication");
    // HBase's snapshot-reader ACLs need files no wider than the ACL mask allows
    p.put("fs.permissions.umask-mode", "027");
  }

  static void hdfs(
      Map<String, String> p, KerberosRealm realm, String namenodeHttps, String datanodeHttps) {
    p.put("dfs.namenode.acls.enabled", "true");
    p.put("dfs.block.access.token.enable", "true");
    p.put("dfs.namenode.kerberos.principal", realm.servicePattern("hdfs"));
    p.put("dfs.namenode.keytab.file", realm.serviceKeytab("hdfs").toString());
    p.put("dfs.datanode.kerberos.principal", realm.servicePattern("hdfs"));
    p.put("dfs.datanode.keytab.file", realm.serviceKeytab("hdfs").toString());
    p.put("dfs.web.authentication.kerberos.principal", realm.servicePattern("HTTP"));
    p.put("dfs.web.authentication.kerberos.keytab", realm.serviceKeytab("HTTP").toString());
    p.put("dfs.data.transfer.protection", "authentication");
    p.put("dfs.http.policy", "HTTPS_ONLY");
    p.put("dfs.namenode.https-address", namenodeHttps);
    p.put("dfs.datanode.https.address", datanodeHttps);
    p.put("dfs.namenode.secondary.https-address", ClusterSites.HOST + ":0");
  }

  /** What an HDFS client of the stack needs beyond core-site: the NameNode's principal, SASL. */
  static void hdfsClient(Map<String, String> p, KerberosRealm realm) {
    p.put("hadoop.security.authentication", "kerberos");
    p.put("dfs.namenode.kerberos.principal", realm.servicePattern("hdfs"));
    p.put("dfs.data.transfer.protection", "authentication");
  }

  /** Servers and clients: Kerberos, and the servers' principal a client asks a ticket for. */
  static void hbaseCommon(Map<String, String> p, KerberosRealm realm) {
    p.put("hadoop.security.authentication", "kerberos");
    p.put("hbase.security.authentication", "kerberos");
    p.put("hbase.security.authorization", "true");
    p.put("hbase.rpc.protection", "authentication");
    p.put("hbase.master.kerberos.principal", realm.servicePattern("hbase"));
    p.put("hbase.regionserver.kerberos.principal", realm.servicePattern("hbase"));
  }

  static void hbaseServers(Map<String, String> p, KerberosRealm realm) {
    p.put("hbase.master.keytab.file", realm.serviceKeytab("hbase").toString());
    p.put("hbase.regionserver.keytab.file", realm.serviceKeytab("hbase").toString());
    String access = "org.apache.hadoop.hbase.security.access.AccessController";
    p.put(
        "hbase.coprocessor.master.classes",
        access + ",org.apache.hadoop.hbase.security.access.SnapshotScannerHDFSAclController");
    // TokenProvider: the delegation tokens Spark fetches for executors at submission
    p.put(
        "hbase.coprocessor.region.classes",
        "org.apache.hadoop.hbase.security.token.TokenProvider," + access);
    p.put("hbase.coprocessor.regionserver.classes", access);
    p.put("hbase.acl.sync.to.hdfs.enable", "true");
    p.put("hbase.superuser", KerberosRealm.ADMIN_USER);
    // secure bulk load is built into 2.x RegionServers (no SecureBulkLoadEndpoint to load): a
    // user's files are handed over through <hbase.rootdir>/staging, which they create (mode 711);
    // 2.x no longer reads hbase.bulkload.staging.dir
  }

  static void yarn(Map<String, String> p, KerberosRealm realm, Path krb5Conf) {
    p.put("yarn.resourcemanager.principal", realm.servicePattern("yarn"));
    p.put("yarn.resourcemanager.keytab", realm.serviceKeytab("yarn").toString());
    p.put("yarn.nodemanager.principal", realm.servicePattern("yarn"));
    p.put("yarn.nodemanager.keytab", realm.serviceKeytab("yarn").toString());
    p.put("yarn.resourcemanager.webapp.spnego-principal", realm.servicePattern("HTTP"));
    p.put("yarn.resourcemanager.webapp.spnego-keytab-file", realm.serviceKeytab("HTTP").toString());
    p.put("yarn.nodemanager.webapp.spnego-principal", realm.servicePattern("HTTP"));
    p.put("yarn.nodemanager.webapp.spnego-keytab-file", realm.serviceKeytab("HTTP").toString());
    // containers run as the NodeManager's OS user (no LinuxContainerExecutor, no setuid binary);
    // YARN still runs each application as its Kerberos user, whose tokens it localizes with. The
    // realm's krb5.conf reaches container JVMs as /etc/krb5.conf would on a real node.
    p.put(
        "yarn.nodemanager.admin-env",
        "MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX,JAVA_TOOL_OPTIONS=-Djava.security.krb5.conf="
            + krb5Conf);
  }
}

package dev.rekey.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

@Tag("unit")
class ClusterSitesTest {
  private static final Path DIR = Path.of("/tmp/rekey-cluster-test");

  private static Map<String, Integer> ports() {
    Map<String, Integer> p = new LinkedHashMap<>();
    int n = 40000;
    for (String k : ClusterFiles.PORT_NAMES) {
      p.put(k, n++);
    }
    return p;
  }

  private static Map<String, String> parse(String xml) throws Exception {
    Document doc =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    NodeList props = doc.getElementsByTagName("property");
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < props.getLength(); i++) {
      var e = (org.w3c.dom.Element) props.item(i);
      m.put(
          e.getElementsByTagName("name").item(0).getTextContent(),
          e.getElementsByTagName("value").item(0).getTextContent());
    }
    return m;
  }

  @Test
  void everySiteIsWellFormedAndEveryAddressIsLoopbackOnAChosenPort() throws Exception {
    ClusterSites s = new ClusterSites(DIR, ports());
    Set<Integer> used = new HashSet<>();
    Pattern hostPort = Pattern.compile("^(?:hdfs://)?([\\w.]+):(\\d+)$");
    for (String xml :
        List.of(
            s.coreSite(),
            s.hdfsSite(),
            s.hbaseServerSite(),
            s.hbaseClientSite(),
            s.yarnSite(5120, 4),
            ClusterSites.capacitySchedulerSite())) {
      for (var e : parse(xml).entrySet()) {
        Matcher m = hostPort.matcher(e.getValue());
        if (m.matches()) {
          assertEquals("127.0.0.1", m.group(1), e.getKey());
          int port = Integer.parseInt(m.group(2));
          assertTrue(
              port == 0 || ports().containsValue(port),
              e.getKey() + " uses a chosen port: " + port);
          used.add(port);
        }
      }
    }
    // every chosen HDFS and YARN port is in some site (the RegionServers' ports are on their
    // command lines)
    for (var e : ports().entrySet()) {
      if (!e.getKey().startsWith("regionserver")
          && !e.getKey().equals("zookeeper")
          && !e.getKey().equals("hbase.master")
          // a kerberized stack's only: the KDC's (on its command line) and HDFS's HTTPS
          && !List.of("kdc", "namenode.https", "datanode.https").contains(e.getKey())) {
        assertTrue(used.contains(e.getValue()), e.getKey() + " is configured");
      }
    }
  }

  @Test
  void hbaseIsRootedOnTheClustersHdfsAndClientsKnowWhereItIs() throws Exception {
    ClusterSites s = new ClusterSites(DIR, ports());
    Map<String, String> client = parse(s.hbaseClientSite());
    assertEquals("hdfs://127.0.0.1:40000/hbase", client.get("hbase.rootdir"));
    assertEquals("hdfs://127.0.0.1:40000", client.get("fs.defaultFS"));
    assertEquals("40005", client.get("hbase.zookeeper.property.clientPort"));
    assertEquals("true", client.get("hbase.cluster.distributed"));
    // seed 003: operation timeout > rpc timeout x retries
    assertTrue(
        Long.parseLong(client.get("hbase.client.operation.timeout"))
            > Long.parseLong(client.get("hbase.rpc.timeout"))
                * Long.parseLong(client.get("hbase.client.retries.number")));
    assertEquals(
        "2", parse(s.hbaseServerSite()).get("hbase.master.wait.on.regionservers.mintostart"));
    assertTrue(s.zooCfg().contains("clientPortAddress=127.0.0.1\n"));
  }

  @Test
  void aCommentThatWouldBreakTheXmlIsRefused() {
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> SiteXml.of("pass --hbase-site", Map.of()));
    assertTrue(e.getMessage().contains("'--'"));
    assertEquals(
        "<?xml version=\"1.0\"?>\n<!-- c -->\n<configuration>\n  <property><name>a</name><value>x&lt;y"
            + "</value></property>\n</configuration>\n",
        SiteXml.of("c", Map.of("a", "x<y")));
  }

  @Test
  void daemonsStartAfterWhatTheyNeed() {
    Map<String, ClusterDaemon> byRole = new LinkedHashMap<>();
    ClusterDaemon.all(ports()).forEach(d -> byRole.put(d.role(), d));
    assertEquals(PseudoCluster.ROLES, List.copyOf(byRole.keySet()));
    assertEquals(List.of("datanode", "zookeeper"), byRole.get("hbase-master").after());
    assertEquals(List.of("namenode"), byRole.get("datanode").after());
    assertEquals(List.of("resourcemanager"), byRole.get("nodemanager").after());
    assertTrue(byRole.get("regionserver-2").args().contains("hbase.regionserver.port=40008"));
  }

  @Test
  void aKerberizedStackNamesEachServicesPrincipalAndKeytabAndAddressesItsHostByName()
      throws Exception {
    KerberosRealm realm = KerberosRealm.singleHost(DIR);
    ClusterSites s = new ClusterSites(DIR, ports(), realm);
    Map<String, String> core = parse(s.coreSite());
    Map<String, String> hdfs = parse(s.hdfsSite());
    Map<String, String> hbase = parse(s.hbaseServerSite());
    Map<String, String> client = parse(s.hbaseClientSite());
    Map<String, String> yarn = parse(s.yarnSite(1024, 2));
    assertEquals("kerberos", core.get("hadoop.security.authentication"));
    assertEquals("hdfs://localhost:40000", core.get("fs.defaultFS"));
    assertEquals("hdfs/_HOST@REKEY.TEST", hdfs.get("dfs.namenode.kerberos.principal"));
    assertEquals(
        DIR.resolve("keytabs/hdfs.keytab").toString(), hdfs.get("dfs.namenode.keytab.file"));
    assertEquals("true", hdfs.get("dfs.permissions.enabled"));
    // a DataNode on unprivileged ports without root: SASL data transfer and HTTPS only
    assertEquals("authentication", hdfs.get("dfs.data.transfer.protection"));
    assertEquals("HTTPS_ONLY", hdfs.get("dfs.http.policy"));
    assertEquals(null, hdfs.get("ignore.secure.ports.for.testing"));
    assertEquals("127.0.0.1", hdfs.get("dfs.namenode.rpc-bind-host"));
    assertEquals("hbase/_HOST@REKEY.TEST", hbase.get("hbase.regionserver.kerberos.principal"));
    assertEquals("localhost", hbase.get("hbase.regionserver.hostname"));
    assertTrue(hbase.get("hbase.coprocessor.region.classes").contains("TokenProvider"));
    assertTrue(
        hbase.get("hbase.coprocessor.master.classes").contains("SnapshotScannerHDFSAclController"));
    assertEquals("admin", hbase.get("hbase.superuser"));
    // the client site alone reaches HDFS and HBase: no keytab of a service in it
    assertEquals("kerberos", client.get("hbase.security.authentication"));
    assertEquals("hdfs/_HOST@REKEY.TEST", client.get("dfs.namenode.kerberos.principal"));
    assertTrue(client.keySet().stream().noneMatch(k -> k.contains("keytab")), client.toString());
    assertEquals("yarn/_HOST@REKEY.TEST", yarn.get("yarn.resourcemanager.principal"));
    assertEquals(
        Map.of(
            DIR.resolve("keytabs/hdfs.keytab"), List.of("hdfs/localhost"),
            DIR.resolve("keytabs/http.keytab"), List.of("HTTP/localhost"),
            DIR.resolve("keytabs/hbase.keytab"), List.of("hbase/localhost"),
            DIR.resolve("keytabs/yarn.keytab"), List.of("yarn/localhost"),
            DIR.resolve("keytabs/rekey.keytab"), List.of("rekey"),
            DIR.resolve("keytabs/admin.keytab"), List.of("admin")),
        realm.keytabs());
    // several hosts: one principal set per host, each host's keytabs in a directory of its own
    KerberosRealm two =
        new KerberosRealm("REKEY.TEST", DIR.resolve("keytabs"), List.of("worker1", "worker2"));
    assertEquals(
        List.of("hbase/worker2"), two.keytabs().get(DIR.resolve("keytabs/worker2/hbase.keytab")));
  }
}

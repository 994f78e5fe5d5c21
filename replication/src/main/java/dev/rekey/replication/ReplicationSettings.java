package dev.rekey.replication;

import dev.rekey.rowkey.KeyLayout;
import dev.rekey.rowkey.KeyRekeyer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a rekeying replication peer does, as the peer's configuration map carries it to every
 * RegionServer ({@code ReplicationPeerConfig.getConfiguration()}): the source table and the text of
 * its layout file, each target table with its layout's text, and the quarantine table. The layouts
 * travel as text so that RegionServers need no layout file.
 *
 * @param sourceTable the replicated table, {@code namespace:name} or {@code name}
 * @param sourceLayout the source layout file's text
 * @param targets the tables the rekeyed edits go to, in the order given
 * @param quarantineTable where edits that cannot be rekeyed go (on the targets' cluster)
 * @param targetCluster the client settings that reach the targets' cluster when it is not the
 *     source's ({@link #CLUSTER_KEYS} of its hbase-site.xml); empty: the source's own cluster
 */
public record ReplicationSettings(
    String sourceTable,
    String sourceLayout,
    List<Target> targets,
    String quarantineTable,
    Map<String, String> targetCluster) {

  /** The endpoint class the peer names ({@code setReplicationEndpointImpl}). */
  public static final String ENDPOINT_CLASS = RekeyingEndpoint.class.getName();

  /** Peer ids are {@code rekey_} + the source table, with characters HBase refuses replaced. */
  public static final String PEER_PREFIX = "rekey_";

  /** The quarantine table used when none is given. */
  public static final String DEFAULT_QUARANTINE_TABLE = "rekey_quarantine";

  static final String KEY = "rekey.replicate.";
  static final String SOURCE_TABLE = KEY + "source.table";
  static final String SOURCE_LAYOUT = KEY + "source.layout";
  static final String TARGETS = KEY + "targets";
  static final String QUARANTINE_TABLE = KEY + "quarantine.table";
  static final String TARGET_CLUSTER = KEY + "target.cluster.";

  /**
   * What of another cluster's client configuration the endpoint needs to write there: its ZooKeeper
   * (or registry) address and its security settings. Addresses and principals only: no secret
   * travels in the peer's configuration.
   */
  public static final List<String> CLUSTER_KEYS =
      List.of(
          "hbase.zookeeper.quorum",
          "hbase.zookeeper.property.clientPort",
          "zookeeper.znode.parent",
          "hbase.client.registry.impl",
          "hbase.client.bootstrap.servers",
          "hbase.security.authentication",
          "hadoop.security.authentication",
          "hbase.master.kerberos.principal",
          "hbase.regionserver.kerberos.principal");

  /** One target: a table and its layout file's text. */
  public record Target(String table, String layout) {}

  /** {@link #CLUSTER_KEYS} as another cluster's client configuration sets them. */
  public static Map<String, String> clusterOf(org.apache.hadoop.conf.Configuration site) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String k : CLUSTER_KEYS) {
      if (site.get(k) != null) {
        m.put(k, site.get(k));
      }
    }
    return m;
  }

  /** The targets on the source's own cluster. */
  public ReplicationSettings(
      String sourceTable, String sourceLayout, List<Target> targets, String quarantineTable) {
    this(sourceTable, sourceLayout, targets, quarantineTable, Map.of());
  }

  public ReplicationSettings {
    targets = List.copyOf(targets);
    targetCluster = Map.copyOf(targetCluster);
    for (String k : targetCluster.keySet()) {
      if (!CLUSTER_KEYS.contains(k)) {
        throw new IllegalArgumentException(
            "a peer's target cluster carries only " + CLUSTER_KEYS + ", not " + k);
      }
    }
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("a rekeying replication peer needs at least one target");
    }
  }

  /** The peer id for a source table: {@code rekey_} + the table name, {@code :} as {@code _}. */
  public static String peerId(String sourceTable) {
    return PEER_PREFIX + sourceTable.replaceAll("[^A-Za-z0-9_.]", "_");
  }

  public String peerId() {
    return peerId(sourceTable);
  }

  /** The peer configuration map: what {@link #fromPeerConfiguration} reads back. */
  public Map<String, String> toPeerConfiguration() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(SOURCE_TABLE, sourceTable);
    m.put(SOURCE_LAYOUT, sourceLayout);
    m.put(TARGETS, Integer.toString(targets.size()));
    for (int i = 0; i < targets.size(); i++) {
      m.put(KEY + "target." + i + ".table", targets.get(i).table());
      m.put(KEY + "target." + i + ".layout", targets.get(i).layout());
    }
    m.put(QUARANTINE_TABLE, quarantineTable);
    targetCluster.forEach((k, v) -> m.put(TARGET_CLUSTER + k, v));
    return m;
  }

  /**
   * Reads a peer's configuration; IllegalArgumentException naming the missing key when it is not a
   * rekeying peer's.
   */
  public static ReplicationSettings fromPeerConfiguration(Map<String, String> conf) {
    int n;
    try {
      n = Integer.parseInt(required(conf, TARGETS));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "peer configuration " + TARGETS + " is not a number: " + conf.get(TARGETS));
    }
    List<Target> targets = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      targets.add(
          new Target(
              required(conf, KEY + "target." + i + ".table"),
              required(conf, KEY + "target." + i + ".layout")));
    }
    Map<String, String> cluster = new LinkedHashMap<>();
    conf.forEach(
        (k, v) -> {
          if (k.startsWith(TARGET_CLUSTER)) {
            cluster.put(k.substring(TARGET_CLUSTER.length()), v);
          }
        });
    return new ReplicationSettings(
        required(conf, SOURCE_TABLE),
        required(conf, SOURCE_LAYOUT),
        targets,
        conf.getOrDefault(QUARANTINE_TABLE, DEFAULT_QUARANTINE_TABLE),
        cluster);
  }

  /** The target cluster's settings over {@code local}'s: what the endpoint connects with. */
  public org.apache.hadoop.conf.Configuration targetConfiguration(
      org.apache.hadoop.conf.Configuration local) {
    org.apache.hadoop.conf.Configuration c = new org.apache.hadoop.conf.Configuration(local);
    targetCluster.forEach(c::set);
    return c;
  }

  /**
   * One key rekeyer per target, in target order; IllegalArgumentException when a layout does not
   * parse or a target cannot be built from the source's fields.
   */
  public List<KeyRekeyer> rekeyers() {
    KeyLayout source = KeyLayout.parse(sourceLayout, "peer " + peerId() + " source layout");
    List<KeyRekeyer> out = new ArrayList<>();
    for (Target t : targets) {
      KeyRekeyer r =
          new KeyRekeyer(
              source, KeyLayout.parse(t.layout(), "peer " + peerId() + " layout of " + t.table()));
      r.check()
          .ifPresent(
              why -> {
                throw new IllegalArgumentException(
                    "Cannot rekey " + sourceTable + " into " + t.table() + ": " + why);
              });
      out.add(r);
    }
    return out;
  }

  private static String required(Map<String, String> conf, String key) {
    String v = conf.get(key);
    if (v == null || v.isEmpty()) {
      throw new IllegalArgumentException(
          "peer configuration has no " + key + " (not a rekey replication peer?)");
    }
    return v;
  }
}
